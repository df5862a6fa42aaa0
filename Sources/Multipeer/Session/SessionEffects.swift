import EventBus
import Logging

/// What the session must do after it lets go of its lock: the lock only ever guards state
/// changes, and every send, close, post, log line and resumption happens outside it, in this
/// order.
struct SessionEffects {
    enum Post {
        case stateChanged(PeerStateChange)
        case dataReceived(ReceivedData)
        case backlogChanged(PeerBacklogChange)
        case streamOpened(IncomingStream)
        case resourceOffered(ResourceArrival)
        case resourceSignal(SenderSignal, ResourceRegistry.Key)
        case messagesResent(ResentMessages)
    }

    private(set) var sends: [(any Connection, EncodedFrame)] = []
    private(set) var closes: [any Connection] = []
    /// Connections closed at once, sending nothing more (``Connection/abort()``).
    private(set) var aborts: [any Connection] = []
    private(set) var posts: [Post] = []
    private(set) var logLines: [SessionLogLine] = []
    private(set) var resolutions: [(OutgoingInvitation, Result<InvitationOutcome, MultipeerError>)] = []
    private(set) var decisions: [(LinkHandler, Invitation, InvitationPolicy)] = []
    private(set) var pauses: [any Connection] = []
    /// Peers whose writing this side claimed (``Session/finishWriting(_:)``): written for, once
    /// the frames above have gone out, until their queues are empty.
    private(set) var writers: [PeerID] = []
    /// Byte streams granted credit, whose pending bytes go out once the lock is let go.
    private(set) var pumps: [(OutgoingStreamCore, ObjectIdentifier)] = []

    mutating func send(_ frame: Frame, on connection: any Connection) {
        sends.append((connection, FrameCodec.encode(frame)))
    }

    /// Sends a frame encoded already (a message kept for a resume).
    mutating func send(_ frame: EncodedFrame, on connection: any Connection) {
        sends.append((connection, frame))
    }

    /// Sends what the stream `core` on `link` has pending, as far as its credit goes.
    mutating func pump(_ core: OutgoingStreamCore, on link: ObjectIdentifier) {
        pumps.append((core, link))
    }

    /// Writes for `peer`, whose writing this side claimed, once the frames queued here are out.
    mutating func finishWriting(_ peer: PeerID) {
        writers.append(peer)
    }

    mutating func close(_ connection: any Connection, after frame: Frame? = nil) {
        if let frame { send(frame, on: connection) }
        closes.append(connection)
    }

    /// Closes `connection` at once, sending nothing more, not even what is queued.
    mutating func abort(_ connection: any Connection) {
        aborts.append(connection)
    }

    /// Holds `connection`, just accepted, unread until a handshake place is free.
    mutating func pauseReading(_ connection: any Connection) {
        pauses.append(connection)
    }

    mutating func post(_ peer: PeerID, _ state: PeerState, _ reason: DisconnectReason? = nil) {
        posts.append(.stateChanged(PeerStateChange(peer: peer, state: state, reason: reason)))
    }

    mutating func post(_ change: PeerBacklogChange) {
        posts.append(.backlogChanged(change))
    }

    mutating func post(_ stream: IncomingStream) {
        posts.append(.streamOpened(stream))
    }

    mutating func post(_ arrival: ResourceArrival) {
        posts.append(.resourceOffered(arrival))
    }

    mutating func signal(_ signal: SenderSignal, for key: ResourceRegistry.Key) {
        posts.append(.resourceSignal(signal, key))
    }

    mutating func post(_ resent: ResentMessages) {
        posts.append(.messagesResent(resent))
    }

    mutating func deliver(_ data: ReceivedData) {
        posts.append(.dataReceived(data))
    }

    /// Logs that the other side at `source` (a remote address or a peer name) did something
    /// the session handled on its own: at `.notice` when it broke the rules, else `.debug`.
    mutating func diagnose(_ message: Logger.Message, _ source: String, _ error: MultipeerError) {
        log(error.code.isPeerMisbehaviour ? .notice : .debug, message, .about(peer: source, error))
    }

    mutating func log(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) {
        logLines.append(SessionLogLine(level: level, message: message, metadata: metadata))
    }

    mutating func resolve(_ invitation: OutgoingInvitation, _ result: Result<InvitationOutcome, MultipeerError>) {
        resolutions.append((invitation, result))
    }

    mutating func decide(_ handler: LinkHandler, _ invitation: Invitation, _ policy: InvitationPolicy) {
        decisions.append((handler, invitation, policy))
    }

    /// Carries everything out, in order: pauses, frames, stream bytes, closes, log lines, posts, invitation
    /// answers, decisions (the writing claimed for peers right after the frames); then lets links waiting for a handshake place into the places free.
    /// Every state change is logged at `.debug`.
    func perform(on session: Session) {
        for connection in pauses { connection.pauseReading() }
        for (connection, frame) in sends { connection.send(frame) }
        for (core, link) in pumps { session.pumpStream(core, link: link) }
        if !writers.isEmpty { session.finishWriting(writers) }
        for connection in closes { connection.close() }
        for connection in aborts { connection.abort() }
        for line in logLines { session.logger.log(level: line.level, line.message, metadata: line.metadata) }
        for post in posts {
            switch post {
            case .stateChanged(let change):
                session.logStateChange(change)
                session.events.post(.stateChanged, change)
            case .dataReceived(let data): session.events.post(.dataReceived, data)
            case .backlogChanged(let change): session.events.post(.backlogChanged, change)
            case .streamOpened(let stream): session.events.post(.streamOpened, stream)
            case .resourceOffered(let arrival): session.receiveOffer(arrival)
            case .resourceSignal(let signal, let key): session.resources.signal(signal, for: key)
            case .messagesResent(let resent): session.events.post(.messagesResent, resent)
            }
        }
        for (invitation, result) in resolutions { invitation.outcome.resolve(result) }
        for (handler, invitation, policy) in decisions { session.decide(invitation, on: handler, by: policy) }
        if session.mayHaveWaitingLinks { session.admitWaitingLinks() }
    }
}
