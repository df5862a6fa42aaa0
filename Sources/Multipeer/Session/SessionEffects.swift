import EventBus

/// What the session must do after it lets go of its lock: the lock only ever guards state
/// changes, and every send, close, post and resumption happens outside it, in this order.
struct SessionEffects {
    enum Post {
        case stateChanged(PeerStateChange)
        case dataReceived(ReceivedData)
        case diagnostic(SessionDiagnostic)
    }

    private(set) var sends: [(any Connection, EncodedFrame)] = []
    private(set) var closes: [any Connection] = []
    private(set) var posts: [Post] = []
    private(set) var resolutions: [(OutgoingInvitation, Result<InvitationOutcome, MultipeerError>)] = []
    private(set) var decisions: [(LinkHandler, Invitation, InvitationPolicy)] = []

    mutating func send(_ frame: Frame, on connection: any Connection) {
        sends.append((connection, FrameCodec.encode(frame)))
    }

    mutating func close(_ connection: any Connection, after frame: Frame? = nil) {
        if let frame { send(frame, on: connection) }
        closes.append(connection)
    }

    mutating func post(_ peer: PeerID, _ state: PeerState, _ reason: DisconnectReason? = nil) {
        posts.append(.stateChanged(PeerStateChange(peer: peer, state: state, reason: reason)))
    }

    mutating func deliver(_ data: ReceivedData) {
        posts.append(.dataReceived(data))
    }

    mutating func diagnose(_ source: String, _ error: MultipeerError) {
        posts.append(.diagnostic(SessionDiagnostic(source: source, error: error)))
    }

    mutating func resolve(_ invitation: OutgoingInvitation, _ result: Result<InvitationOutcome, MultipeerError>) {
        resolutions.append((invitation, result))
    }

    mutating func decide(_ handler: LinkHandler, _ invitation: Invitation, _ policy: InvitationPolicy) {
        decisions.append((handler, invitation, policy))
    }

    /// Carries everything out, in order: frames, closes, posts, invitation answers, decisions.
    func perform(on session: Session) {
        for (connection, frame) in sends { connection.send(frame) }
        for connection in closes { connection.close() }
        for post in posts {
            switch post {
            case .stateChanged(let change): session.events.post(.stateChanged, change)
            case .dataReceived(let data): session.events.post(.dataReceived, data)
            case .diagnostic(let diagnostic): session.events.post(.sessionDiagnostic, diagnostic)
            }
        }
        for (invitation, result) in resolutions { invitation.outcome.resolve(result) }
        for (handler, invitation, policy) in decisions { session.decide(invitation, on: handler, by: policy) }
    }
}
