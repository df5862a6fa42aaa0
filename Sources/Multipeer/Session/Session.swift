import EventBus
import Foundation
import Logging
import Synchronization

/// A group of connected peers, the centre of the library (Apple's `MCSession`).
///
/// A session listens for invitations (``startListening(port:policy:)``, usually through an
/// ``Advertiser``), delivers its own (``invite(_:context:timeout:)``), keeps every remote peer's
/// ``PeerState``, and sends reliable, ordered messages to one, several or all connected peers.
/// What happens is posted on ``events``: ``EventName/stateChanged``,
/// ``EventName/dataReceived``, ``EventName/backlogChanged`` for a peer that stops reading, and
/// ``EventName/streamOpened`` for a byte stream a peer opens (``openStream(named:to:)``).
/// What the session handles on its own goes to its ``logger``: a
/// peer that breaks the protocol (a malformed or oversized frame, another protocol version, a
/// handshake that fails or times out, a link replaced by a newer one) at `.notice`, every state
/// change and the start of listening at `.debug`.
///
/// Peers that stop answering are found by heartbeats within three seconds (see
/// ``SessionConfiguration``). One lock guards a session's state, transports call it on their
/// threads, and its ``clock`` ticks a few times a second to check deadlines and send heartbeats
/// (the real clock on a thread of its own, never on the cooperative pool).
/// It lives until ``disconnect()``, which says goodbye to everyone.
public final class Session: Sendable {
    /// This side's peer.
    public let localPeer: PeerID
    /// Limits and timings.
    public let configuration: SessionConfiguration
    /// Where the session posts what happens. Observers run on the transport's threads.
    public let events: EventBus
    /// Where the session logs what it handled on its own, with `peer` (a remote address or a
    /// display name) and, for errors, `code` (a ``MultipeerError/Code``) as metadata.
    public let logger: Logger
    /// The time the session keeps: every deadline, heartbeat and budget of it reads this clock.
    public let clock: any SessionClock

    let transport: any Transport
    /// This session's incarnation: a random number that tells its peers, in a RESUME, that it
    /// is the session they exchanged messages with before, not a new one (a restarted program).
    let incarnation = UInt64.random(in: 1...UInt64.max)
    let state = Mutex(SessionState())
    /// Set, under the lock, while links wait for a handshake place (``SessionState/waiting``):
    /// read without it after every change, so that a session with none waiting takes no lock more.
    let waitingLinks = Atomic<Bool>(false)
    /// The resources this session sends and receives.
    let resources = ResourceRegistry()
    /// The disk the session's resources are read from and written to: its transport's
    /// (``Transport/makeResourceFiles()``) unless it was given one. A POSIX disk puts the
    /// session's received files in place durably, in groups.
    public let resourceFiles: any ResourceFiles
    /// Held while a stream id is taken and its opening frame handed to the connection, so that
    /// ids reach the peer in the order they were taken, whatever thread opens them (a lower id
    /// after a higher one is a violation, §3.8).
    let streamOpening = Mutex(())

    /// Creates a session for `localPeer` that connects through `transport`.
    ///
    /// - Parameters:
    ///   - logger: where the session logs; by default a logger labelled `multipeer.session`,
    ///     which goes wherever the process bootstrapped swift-log.
    ///   - clock: the time the session keeps; by default its transport's (``Transport/clock``),
    ///     the real clock over TCP.
    ///   - resourceFiles: the disk of the session's resources; by default one its transport
    ///     makes for it (``Transport/makeResourceFiles()``), the system's over TCP.
    public init(
        localPeer: PeerID,
        transport: any Transport,
        configuration: SessionConfiguration = SessionConfiguration(),
        events: EventBus = EventBus(),
        logger: Logger = Logger(label: "multipeer.session"),
        clock: (any SessionClock)? = nil,
        resourceFiles: (any ResourceFiles)? = nil
    ) {
        self.localPeer = localPeer
        self.transport = transport
        self.configuration = configuration
        self.events = events
        self.logger = logger
        self.clock = clock ?? transport.clock
        self.resourceFiles = resourceFiles ?? transport.makeResourceFiles()
        startTicker()
    }

    deinit {
        // A session let go without ``disconnect(reason:)`` ticks no more.
        state.withLock { $0.ticker }?.stop()
    }

    // MARK: Peers

    /// The peers connected now.
    public var connectedPeers: [PeerID] {
        state.withLock { Array($0.connectedLinks.keys) }
    }

    /// How many peers are connected, or have an invitation being decided, through connections
    /// from the network of `address` (an IP address as ``Connection/remoteAddress`` gives it;
    /// its network is ``RemoteAddress/limitGroup(of:)``: the IPv4 address itself, or an IPv6
    /// address's whole /64, which one machine can take addresses from at will): for limits per
    /// address. An invitation being decided counts, so that invitations decided at the same
    /// time cannot all slip under a limit.
    public func peerCount(fromAddress address: String) -> Int {
        let network = RemoteAddress.limitGroup(of: address)
        return state.withLock { $0.peerCount(fromNetwork: network) }
    }

    /// How many connections from `address` are still waiting for their HELLO: what the handshake
    /// limits count (``SessionConfiguration/maximumHandshakesPerAddress``). For tests.
    func handshakeCount(fromAddress address: String) -> Int {
        state.withLock { state in
            state.links.values.filter { record in
                if case .awaitingHello = record.phase { record.connection.remoteAddress == address } else { false }
            }.count
        }
    }

    /// How many accepted connections wait for a handshake place. For tests.
    func waitingCount() -> Int {
        state.withLock { $0.waiting.count }
    }

    /// The key `peer` proved on its connection, when it is connected over a transport that
    /// proves keys (``Transport/provesPeers``).
    public func provenKey(of peer: PeerID) -> PeerFingerprint? {
        state.withLock { state in state.connectedLinks[peer].flatMap { state.links[$0]?.connection.provenPeer } }
    }

    /// What `peer` proved on its connection (its key, and the owner that endorsed it), when it is
    /// connected over a transport that proves keys.
    public func proof(of peer: PeerID) -> PeerProof? {
        state.withLock { state in state.connectedLinks[peer].flatMap { state.links[$0]?.connection.proof } }
    }

    /// The six digits both people can compare to check that nobody sits between this peer and
    /// `peer` on this connection (see ``VerificationCode``); nil when `peer` is not connected
    /// over a transport that proves keys, or (on the advertiser's side) until the inviter has
    /// revealed its nonce, which it does as soon as it is accepted.
    public func verificationCode(with peer: PeerID) -> String? {
        state.withLock { state -> String? in
            guard let id = state.connectedLinks[peer], let record = state.links[id], let nonces = record.codeNonces,
                  let local = record.connection.localKey, let remote = record.connection.provenPeer
            else { return nil }
            return nonces.code(local: local, remote: remote)
        }
    }

    /// Where `peer` stands with this session.
    public func state(of peer: PeerID) -> PeerState {
        state.withLock { state in
            if state.connectedLinks[peer] != nil { return .connected }
            if state.pendingLinks[peer] != nil { return .connecting }
            return .notConnected
        }
    }

    // MARK: Listening

    /// The port invitations are accepted on, or nil when not listening.
    public var listeningPort: Int? {
        state.withLock { $0.listener?.port }
    }

    /// Starts accepting invitations on `port` (0 lets the system choose), answering each by
    /// `policy`. Calling it again while listening only replaces the policy.
    ///
    /// - Returns: the port in use.
    /// - Throws: ``MultipeerError/Code/listenFailed`` or ``MultipeerError/Code/sessionClosed``.
    @discardableResult
    public func startListening(port: Int = 0, policy: InvitationPolicy = .acceptAll) async throws(MultipeerError) -> Int {
        let existing: Int? = try state.withLock { state throws(MultipeerError) in
            if state.isClosed { throw .sessionClosed }
            state.policy = policy
            return state.listener?.port
        }
        if let existing { return existing }
        let listener = try await transport.listen(port: port, options: configuration.linkOptions) { [self] in
            LinkHandler(session: self, outgoing: nil)
        }
        let (kept, inUse) = state.withLock { state -> (Bool, (any Listener)?) in
            if state.isClosed { return (false, nil) }
            if let current = state.listener { return (false, current) }
            state.listener = listener
            return (true, listener)
        }
        if kept {
            logger.debug("Listening for invitations.", metadata: ["port": "\(listener.port)"])
            return listener.port
        }
        await listener.close()
        guard let inUse else { throw .sessionClosed }
        return inUse.port
    }

    /// Replaces the policy that answers invitations from now on.
    public func setInvitationPolicy(_ policy: InvitationPolicy) {
        state.withLock { $0.policy = policy }
    }

    /// Stops accepting invitations. Connected peers stay connected.
    public func stopListening() async {
        let listener = state.withLock { state in
            defer { state.listener = nil }
            return state.listener
        }
        await listener?.close()
    }

    // MARK: Sending

    /// Sends `payload` to each of `peers`, reliably and in order.
    ///
    /// Nothing is sent unless every one of `peers` is connected.
    /// - Parameter messageType: the type string receivers see, or nil for raw bytes.
    /// - Throws: ``MultipeerError/Code/peerNotConnected``, ``MultipeerError/Code/messageTooLarge``,
    ///   ``MultipeerError/Code/sessionClosed``.
    public func send(_ payload: Data, messageType: String? = nil, to peers: [PeerID]) throws(MultipeerError) {
        let frame = try dataFrame(payload, messageType: messageType)
        let now = clock.now
        let outbox = try state.withLock { state throws(MultipeerError) -> Outbox in
            if state.isClosed { throw .sessionClosed }
            var missing: [PeerID] = []
            for peer in peers where state.connectedLinks[peer] == nil { missing.append(peer) }
            if !missing.isEmpty { throw .peerNotConnected(missing) }
            var outbox = Outbox()
            for peer in peers { route(frame, to: peer, via: state.connectedLinks[peer]!, at: now, state: &state, outbox: &outbox) }
            return outbox
        }
        write(frame, outbox)
    }

    /// Sends `payload` to `peer`, reliably and in order: what sending to `[peer]` does, without
    /// the array (a game's reply to each move takes this path).
    /// - Throws: ``MultipeerError/Code/peerNotConnected``, ``MultipeerError/Code/messageTooLarge``,
    ///   ``MultipeerError/Code/sessionClosed``.
    public func send(_ payload: Data, messageType: String? = nil, to peer: PeerID) throws(MultipeerError) {
        let frame = try dataFrame(payload, messageType: messageType)
        let now = clock.now
        let outbox = try state.withLock { state throws(MultipeerError) -> Outbox in
            if state.isClosed { throw .sessionClosed }
            guard let id = state.connectedLinks[peer] else { throw .peerNotConnected([peer]) }
            var outbox = Outbox()
            route(frame, to: peer, via: id, at: now, state: &state, outbox: &outbox)
            return outbox
        }
        write(frame, outbox)
    }

    /// Sends `payload` to every connected peer; returns how many that was.
    ///
    /// - Parameters:
    ///   - skippingBacklogged: leave out the peers that are not reading (see
    ///     ``isBacklogged(_:)``), for messages a peer can do without, such as a history that a
    ///     fresh summary replaces once the peer has drained.
    ///   - excluded: the identities of peers to leave out, connected or not: those an app has
    ///     not taken in yet, say, because their ``EventName/stateChanged`` post is still on its way.
    @discardableResult
    public func sendToAll(
        _ payload: Data, messageType: String? = nil, skippingBacklogged: Bool = false, excluding excluded: Set<UUID> = []
    ) throws(MultipeerError) -> Int {
        let frame = try dataFrame(payload, messageType: messageType)
        let now = clock.now
        let (outbox, count) = try state.withLock { state throws(MultipeerError) -> (Outbox, Int) in
            if state.isClosed { throw .sessionClosed }
            var outbox = Outbox(expecting: state.connectedLinks.count)
            var count = 0
            for (peer, id) in state.connectedLinks {
                guard excluded.isEmpty || !excluded.contains(peer.identity),
                      let index = state.links.index(forKey: id), !(skippingBacklogged && state.withLink(at: index, { $0.backloggedSince }) != nil)
                else { continue }
                route(frame, to: peer, via: id, at: now, state: &state, outbox: &outbox)
                count += 1
            }
            return (outbox, count)
        }
        write(frame, outbox)
        return count
    }

    /// Sends a typed message to each of `peers`; see ``send(_:messageType:to:)``.
    public func send<Message: SessionMessage>(_ message: Message, to peers: [PeerID]) throws(MultipeerError) {
        try send(Self.encode(message), messageType: Message.messageType, to: peers)
    }

    /// Sends a typed message to every connected peer; returns how many that was.
    @discardableResult
    public func sendToAll<Message: SessionMessage>(_ message: Message) throws(MultipeerError) -> Int {
        try sendToAll(Self.encode(message), messageType: Message.messageType)
    }

    private static func encode<Message: SessionMessage>(_ message: Message) throws(MultipeerError) -> Data {
        do { return try JSONEncoder().encode(message) } catch {
            throw .messageEncodingFailed(Message.messageType, error)
        }
    }

    private func dataFrame(_ payload: Data, messageType: String?) throws(MultipeerError) -> EncodedFrame {
        try FrameCodec.encodeData(payload, messageType: messageType, maximumFrameLength: configuration.maximumFrameLength)
    }

    // MARK: Disconnecting

    /// Says goodbye to `peer` (with `reason`, shown to it) and closes its connection.
    /// Does nothing when `peer` is not connected.
    public func disconnect(_ peer: PeerID, reason: String? = nil) {
        let effects = state.withLock { state in
            var effects = SessionEffects()
            guard let id = state.connectedLinks[peer], let record = state.removeLink(id) else { return effects }
            forgetMessages(of: peer, state: &state)
            effects.close(record.connection, after: .goodbye(reason: reason))
            effects.post(peer, .notConnected, .localDisconnect)
            return effects
        }
        effects.perform(on: self)
    }

    /// Says goodbye to every peer, turns away pending invitations, stops listening and ends
    /// the session. Afterwards every operation throws ``MultipeerError/Code/sessionClosed``.
    ///
    /// Returns once every connection has closed, so the goodbyes have left this program (or
    /// after ``drainTimeout`` when a peer does not close its side). That includes connections
    /// closed just before with ``disconnect(_:reason:)``: a program that says goodbye to its
    /// host and then ends is not taken for one that dropped.
    public func disconnect(reason: String? = nil) async {
        let drained = OneShot<Void>()
        let (effects, listener, ticker) = state.withLock { state in
            var effects = SessionEffects()
            guard !state.isClosed else { return (effects, nil as (any Listener)?, nil as SessionTicker?) }
            state.isClosed = true
            state.drained = drained
            state.ledgers = [:]
            for id in Array(state.links.keys) {
                guard let record = state.removeLink(id) else { continue }
                switch record.phase {
                case .connected(let peer):
                    effects.close(record.connection, after: .goodbye(reason: reason))
                    effects.post(peer, .notConnected, .localDisconnect)
                case .deciding(let invitation) where record.challenge != nil:
                    effects.close(record.connection, after: .goodbye(reason: reason ?? "the host is leaving"))
                    effects.post(invitation.peer, .notConnected, .invitationEnded)
                case .deciding(let invitation):
                    effects.close(record.connection, after: .decline(.init(cause: .refused, reason: reason ?? "the host is leaving")))
                    effects.post(invitation.peer, .notConnected, .invitationEnded)
                case .inviting(let outgoing):
                    effects.close(record.connection, after: .goodbye(reason: reason))
                    effects.resolve(outgoing, .failure(.sessionClosed))
                case .awaitingHello:
                    effects.close(record.connection)
                }
            }
            defer { state.listener = nil; state.ticker = nil }
            return (effects, state.listener, state.ticker)
        }
        ticker?.stop()
        if state.withLock({ $0.closing.isEmpty }) { drained.resolve(()) }
        effects.perform(on: self)
        await listener?.close()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Wall time, whatever the session's clock: this waits for the system to send
                // bytes, which no simulated clock speeds up.
                try? await Task.sleep(for: Self.drainTimeout)
                drained.resolve(())
            }
            await drained.wait()
            group.cancelAll()
        }
    }

    /// The longest ``disconnect(reason:)`` waits for connections to close, in wall time.
    public static var drainTimeout: Duration { .seconds(2) }

    /// Logs `change` at `.debug` and posts it.
    func postStateChange(_ change: PeerStateChange) {
        logStateChange(change)
        events.post(.stateChanged, change)
    }

    func logStateChange(_ change: PeerStateChange) {
        var metadata = Logger.Metadata.about(peer: change.peer.displayName)
        switch change.reason {
        case .goodbye(let reason): metadata["reason"] = .string(reason.map { "goodbye: \($0)" } ?? "goodbye")
        case .localDisconnect: metadata["reason"] = "disconnected here"
        case .invitationEnded: metadata["reason"] = "invitation ended"
        case .lost(let error):
            metadata["reason"] = "lost"
            metadata["code"] = .string(error.code.rawValue)
        case nil: break
        }
        switch change.state {
        case .connecting: logger.debug("Peer is connecting.", metadata: metadata)
        case .connected: logger.debug("Peer connected.", metadata: metadata)
        case .notConnected: logger.debug("Peer disconnected.", metadata: metadata)
        }
    }

    func checkOpen() throws(MultipeerError) {
        if state.withLock({ $0.isClosed }) { throw .sessionClosed }
    }
}
