import EventBus
import Foundation
import Logging
import Multipeer

/// A guest's side of a room running any game: it sends moves, chat and renames to the host,
/// keeps the room as this guest knows it (``RoomGuestState``), and tells a presenter everything
/// new through ``events``, in order.
///
/// Create it before inviting the host, so that the welcome cannot arrive unobserved.
///
/// What it handles on its own is logged at `.notice` with the sender's name as `peer` metadata:
/// a message that cannot be decoded, is of an unknown type or comes from a peer that is not
/// the host.
public final class RoomGuest<Rules: GameRules>: Sendable {
    /// The guest's session.
    public let session: Session
    /// Everything this guest is told, in order (buffered up to a limit; read it).
    public let events: AsyncStream<RoomGuestEvent<Rules>>
    private let continuation: AsyncStream<RoomGuestEvent<Rules>>.Continuation
    private let state: Watched<RoomGuestState<Rules>>
    private let observations = ObservationBag()
    private let observer: (any RoomGuestObserver<Rules>)?
    private let logger: Logger

    /// Starts following the room hosted by whoever `session` connects to.
    public convenience init(session: Session, logger: Logger = Logger(label: "guessnum.room")) {
        self.init(session: session, host: nil, logger: logger, observer: nil)
    }

    /// Starts following the room hosted by `host` (nil: whoever `session` connects to, or sends
    /// a welcome first), telling `observer` everything instead of ``events`` (which then ends at
    /// once). Created with a host already connected, it asks the host for a fresh welcome.
    package init(session: Session, host: PeerID?, logger: Logger, observer: (any RoomGuestObserver<Rules>)?) {
        self.session = session
        self.logger = logger
        self.observer = observer
        var initial = RoomGuestState<Rules>()
        initial.host = host
        state = Watched(initial)
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(observer == nil ? 4096 : 1))
        if observer != nil { continuation.finish() }
        observations.add(contentsOf: [
            session.events.observe(.dataReceived) { [weak self] data in self?.received(data) },
            session.events.observe(.stateChanged) { [weak self] change in self?.peerChanged(change) },
        ])
        if let host, session.state(of: host) == .connected { try? requestWelcome() }
    }

    /// Stops following the room; the session stays connected.
    public func stop() {
        observations.cancelAll()
        continuation.finish()
    }

    deinit {
        observations.cancelAll()
        continuation.finish()
    }

    /// The room as this guest knows it now.
    public var current: RoomGuestState<Rules> { state.value }

    /// What to invite the host with: the game this guest plays, and after a drop the last item
    /// it has, so that the host gives back the held seat and replays what came after.
    public var joinRequest: JoinRequest {
        JoinRequest(resumeAfter: resumePoint, playing: Rules.kind)
    }

    /// What a guest coming back after a drop says it has: the last item's number; nil before
    /// any welcome, when it has nothing to go on from.
    public var resumePoint: UInt64? {
        let current = state.value
        return current.isWelcomed ? current.lastSequence : nil
    }

    /// Waits until the room as this guest knows it meets `condition` or `deadline` passes.
    @discardableResult
    public func state(until condition: @escaping @Sendable (RoomGuestState<Rules>) -> Bool, before deadline: ContinuousClock.Instant) async -> RoomGuestState<Rules> {
        await state.wait(until: condition, before: deadline)
    }

    // MARK: Sending

    /// Plays `move`.
    /// - Throws: ``GameError/Code/notJoined`` or ``GameError/Code/sendFailed``.
    public func play(_ move: Rules.Move) throws(GameError) {
        let payload: Data
        do { payload = try Rules.Codec.encode(move: move) } catch { throw .sendFailed(.messageEncodingFailed(Rules.Codec.moveType, error)) }
        try session.send(payload, messageType: Rules.Codec.moveType, toRoomHost: state.value.host)
    }

    /// Says `text` to everyone.
    /// - Throws: ``GameError/Code/chatTooLong``, ``GameError/Code/notJoined``, ``GameError/Code/sendFailed``.
    public func say(_ text: String) throws(GameError) {
        try RoomProtocol.checkChat(text)
        try send(ChatMessage(text: text))
    }

    /// Asks the host for another name; everyone sees the new one once the host agrees.
    /// - Throws: ``GameError/Code/invalidName`` (checked here first), ``GameError/Code/notJoined``,
    ///   ``GameError/Code/sendFailed``.
    public func rename(to name: String) throws(GameError) {
        try RoomProtocol.checkName(name)
        try send(RenameRequest(name: name))
    }

    /// Asks the host for a fresh welcome.
    /// - Throws: ``GameError/Code/notJoined``, ``GameError/Code/sendFailed``.
    public func requestWelcome() throws(GameError) {
        try send(SyncRequest())
    }

    /// Asks the host for what came after the last item this guest has (a replay, or a fresh
    /// welcome when the host no longer keeps it): for a guest back after a drop that the host
    /// did not notice, which took the new link for the old one and sends nothing by itself.
    ///
    /// From the moment the link to the host is lost, broadcasts wait until what was missed has
    /// come, so that none carries the guest past it.
    /// - Throws: ``GameError/Code/notJoined``, ``GameError/Code/sendFailed``.
    public func requestCatchUp() throws(GameError) {
        try send(SyncRequest(after: resumePoint))
    }

    /// Stops waiting for what was missed during a drop: the broadcasts held since (see
    /// ``requestCatchUp()``) are taken in and told now, and the items missed before them are not.
    public func takeInHeldBroadcasts() {
        tell(under: { $0.releaseHeldBatches() })
    }

    private func send<Message: GameMessage>(_ message: Message) throws(GameError) {
        try session.send(message, toRoomHost: state.value.host)
    }

    // MARK: Receiving

    private func peerChanged(_ change: PeerStateChange) {
        switch change.state {
        case .connected:
            state.withLock { if $0.host == nil || $0.host?.identity == change.peer.identity { $0.host = change.peer } }
        case .notConnected:
            tell(under: { state in
                guard state.host == change.peer else { return [] }
                // A drop, not a goodbye: what comes after getting back in waits for what was missed.
                if case .lost = change.reason { state.holdBroadcasts() }
                logger.debug("Host left.", metadata: .game(peer: change.peer.displayName))
                return [.hostLeft(change)]
            })
        case .connecting: break
        }
    }

    private func received(_ data: ReceivedData) {
        if let host = state.value.host, data.peer != host {
            return logger.notice("A peer that is not the host sent a message; it was ignored.", metadata: .game(peer: data.peer.displayName))
        }
        let message: RoomHostMessage<Rules>?
        do { message = try data.messageType.flatMap { try Rules.Codec.decode(type: $0, payload: data.payload) } } catch {
            var metadata = Logger.Metadata.game(peer: data.peer.displayName)
            metadata["type"] = .string(data.messageType ?? "raw bytes")
            metadata["error"] = .string("\(error)")
            return logger.notice("Host sent a message that could not be decoded; it was ignored.", metadata: metadata)
        }
        if let message {
            if case .welcome = message { logger.debug("Welcomed by the host.", metadata: .game(peer: data.peer.displayName)) }
            let missing = tell(under: { state in
                state.take(message, from: data.peer)
            }, asking: true)
            // Items came after a gap (a host that took this guest's new link for its old one
            // sent them before what was missed): ask for what is missing; they wait for it.
            if let missing { try? send(SyncRequest(after: missing)) }
        } else if data.messageType == GameErrorMessage.messageType {
            guard let message = decode(GameErrorMessage.self, data) else { return }
            tell(under: { _ in [.error(message.error)] })
        } else {
            var metadata = Logger.Metadata.game(peer: data.peer.displayName)
            metadata["type"] = .string(data.messageType ?? "raw bytes")
            logger.notice("Host sent a message of an unknown type; it was ignored.", metadata: metadata)
        }
    }

    /// Changes the state with `change`, which says what to tell: kept by the observer under the
    /// lock, then reported, or yielded to ``events``. With `asking`, what is missing to ask the
    /// host for (see ``RoomGuestState/missingToAskFor(at:)``).
    @discardableResult
    private func tell(under change: (inout RoomGuestState<Rules>) -> [RoomGuestEvent<Rules>], asking: Bool = false) -> UInt64? {
        let now = session.clock.now
        let (told, missing) = state.withLock { state in
            let told = change(&state)
            if let observer, !told.isEmpty { observer.keep(told, in: state) }
            return (told, asking ? state.missingToAskFor(at: now) : nil)
        }
        if let observer {
            if !told.isEmpty { observer.report() }
        } else {
            for event in told { continuation.yield(event) }
        }
        return missing
    }

    private func decode<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            logger.notice("Host sent a message that could not be decoded; it was ignored.", metadata: .game(peer: data.peer.displayName, code: error.code.rawValue))
            return nil
        }
    }
}
