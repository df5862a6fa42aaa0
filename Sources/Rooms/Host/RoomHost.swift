import EventBus
import Foundation
import Logging
import Multipeer

/// The host's side of a room running any game over a `Multipeer` ``Session``: it seats the
/// peers that connect, plays their moves through the game's ``GameRules``, relays chat, runs the
/// rounds, and broadcasts what happened every ``RoomConfiguration/broadcastTick``.
///
/// A move's private reply, or its refusal, goes to the mover at once; everything everyone reads
/// is numbered and sent with the next tick as one ``RoomBatch``, after the welcomes
/// (``RoomWelcome``) of newcomers and the replays of players back after a drop; after a tick that
/// changed the game each seated player who is not away also gets the game as they now see it
/// (``RoomViewUpdate``). A player whose link drops keeps the seat for
/// ``RoomConfiguration/awayGracePeriod``, and the game is not told unless the seat is given up.
///
/// Nothing the room sends is too large for a frame: a tick's batch, or a replay, that does not
/// fit one is sent as several, in order; a welcome lists fewer players (then scores) until it
/// fits. A tick that sent more frames than ``RoomConfiguration/broadcastFramesPerSecond``
/// allows makes the next one wait longer, and players who see the game alike share one encoded
/// view.
///
/// All state is one ``RoomTable`` behind one lock, never held while sending. Two tasks run while
/// started: the tick, and the pause between rounds; ``stop()`` ends both.
///
/// ```swift
/// let host = RoomHost(session: session, rules: TicTacToeRules())
/// host.start()
/// let port = try await session.startListening(policy: .custom { host.admission(of: $0) })
/// ```
public final class RoomHost<Rules: GameRules>: Sendable {
    /// The host's session.
    public let session: Session
    /// The room's rules and limits.
    public let configuration: RoomConfiguration
    @usableFromInline let logger: Logger
    let privacy: RoomPrivacy?
    /// Everything numbered that happened in the room, as it is broadcast (one tick late at most;
    /// in a room with an observer, the items the broadcast only counted too), and the guests
    /// turned away for the password: what the host's own screen shows. Buffered up to a limit;
    /// read it or leave it.
    public let activity: AsyncStream<RoomActivity<Rules>>
    let activityContinuation: AsyncStream<RoomActivity<Rules>>.Continuation
    @usableFromInline let state: Watched<State>
    private let observations = ObservationBag()
    let observer: (any RoomObserver<Rules>)?

    @usableFromInline enum Phase: Sendable { case ready, running, stopped }

    @usableFromInline struct State: Sendable {
        @usableFromInline var table: RoomTable<Rules>
        @usableFromInline var phase = Phase.ready
        var ticker: Task<Void, Never>?
        var pause: Task<Void, Never>?
        /// Players coming back whose invitation said what they have, until their link is connected.
        var resuming: [UUID: UInt64] = [:]
        /// Whether the game changed since the last tick (the players' views are sent again).
        @usableFromInline var gameChanged = false
    }

    /// A room on `session` playing `rules`, with `configuration`; moves are throttled by
    /// `moveThrottle` per player; a private room when `password` is given. Call ``start()``.
    public convenience init(
        session: Session, rules: Rules, configuration: RoomConfiguration = RoomConfiguration(),
        moveThrottle: Throttle = .moves, password: GamePassword? = nil,
        logger: Logger = Logger(label: "guessnum.room")
    ) {
        self.init(
            session: session, rules: rules, configuration: configuration, moveThrottle: moveThrottle, password: password, logger: logger,
            observer: nil) { _ in }
    }

    /// A room as ``init(session:rules:configuration:moveThrottle:password:logger:)`` makes it,
    /// whose ticks `observer` sees (then ``activity`` stays empty unless the observer leaves it
    /// to the screen), its table first set up by
    /// `prepare` (a room resumed from a store, say).
    package init(
        session: Session, rules: Rules, configuration: RoomConfiguration, moveThrottle: Throttle, password: GamePassword?, logger: Logger,
        observer: (any RoomObserver<Rules>)?, prepare: (inout RoomTable<Rules>) -> Void
    ) {
        self.session = session
        self.configuration = configuration
        self.logger = logger
        let host = PlayerRef(id: session.localPeer.identity, name: session.localPeer.displayName)
        privacy = password.map { RoomPrivacy(password: $0, host: host.id, clock: session.clock, logger: logger) }
        var table = RoomTable(rules: rules, configuration: configuration, host: host, moveThrottle: moveThrottle)
        table.keepsEveryItem = observer != nil
        prepare(&table)
        state = Watched(State(table: table))
        let showsActivity = observer?.leavesActivity ?? true
        (activity, activityContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(showsActivity ? 4096 : 1))
        if !showsActivity { activityContinuation.finish() }
        self.observer = observer
    }

    /// Runs `body` with the room as it is now, under its lock: keep it short.
    package func withTable<Result>(_ body: (RoomTable<Rules>) -> Result) -> Result {
        state.withLock { body($0.table) }
    }

    // MARK: Life cycle

    /// Starts serving: seats the peers connected already, starts the first round (unless the
    /// room goes on with one) and the tick. Calling it again, or after ``stop()``, does nothing.
    @inlinable
    public func start() {
        // The observer is made here, inlined into the caller's module: the guess's path runs
        // specialized for its game. It is made only by the call that starts the room.
        begin { session.events.observe(.dataReceived) { [weak self] data in self?.receive(data) } }
    }

    /// ``start()``, observing the session's data with what `observeData` makes once the room runs.
    @usableFromInline
    func begin(observingData observeData: () -> EventObservation) {
        let now = session.clock.now
        let starting = state.withLock { state -> (Bool, over: Bool) in
            guard state.phase == .ready else { return (false, false) }
            state.phase = .running
            if state.table.round == 0 { state.table.startRound(at: now) }
            state.gameChanged = true
            return (true, state.table.rules.roundResult != nil)
        }
        guard starting.0 else { return }
        // A room that goes on with a round already over starts the next after the usual pause.
        if starting.over { scheduleNextRound() }
        observations.add(contentsOf: [
            session.events.observe(.stateChanged) { [weak self] change in self?.peerChanged(change) },
            observeData(),
            session.events.observe(.backlogChanged) { [weak self] change in self?.backlogChanged(change) },
        ])
        let tick = configuration.broadcastTick
        let ticker = Task { [weak self] in
            var interval = tick
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                interval = self.flush()
            }
        }
        state.withLock { state in
            if state.phase == .running { state.ticker = ticker } else { ticker.cancel() }
        }
        for peer in session.connectedPeers { join(peer) }
    }

    /// Stops serving: what the last tick gathered is still sent, then nothing more. The session
    /// stays connected.
    public func stop() {
        _ = flush()
        let tasks = state.withLock { state -> [Task<Void, Never>?] in
            defer { (state.phase, state.ticker, state.pause) = (.stopped, nil, nil) }
            return [state.ticker, state.pause]
        }
        observations.cancelAll()
        for task in tasks { task?.cancel() }
        activityContinuation.finish()
    }

    deinit {
        observations.cancelAll()
        activityContinuation.finish()
    }

    // MARK: Admission

    /// Whether the inviter of `invitation` may come in now: declined when the room is full, when
    /// the host removed them (or someone like them) a short while ago, or when
    /// ``RoomConfiguration/maximumPlayersPerAddress`` players already come from its address; in
    /// a private room, then challenged for the password (unless it is a player back after a
    /// drop whose connection proved its key, see ``Multipeer/Invitation/isIdentityProven``). An
    /// inviter that plays another game (its ``JoinRequest/game``; none is guess-the-number) is
    /// declined with ``GameError/wrongGame(hosted:asked:)``.
    public func admission(of invitation: Invitation) -> InvitationDecision {
        RoomAdmission.decide(invitation, hosting: Rules.kind, session: session, privacy: privacy, logger: logger) { request, connected, now in
            state.withLock { state in
                let id = invitation.peer.identity
                let decision = state.table.seats.admit(invitation.peer, from: invitation.remoteAddress, connected: connected, at: now)
                let isSeated = state.table.seats.roster[id] != nil
                if decision == .accept, let after = request.resumeAfter, isSeated { state.resuming[id] = after }
                return (decision, isSeated)
            }
        }
    }

    /// Whether `peer`, whose link comes from `address` (nil: not known), could join now: the
    /// seats' decision alone (full, removed), for a host that asks about each player first.
    public func admission(of peer: PeerID, from address: String?) -> InvitationDecision {
        state.withLock { $0.table.seats.admission(of: peer, from: address, at: session.clock.now) }
    }

    /// Says `text` to everyone, as the host.
    /// - Throws: ``GameError/Code/chatTooLong``.
    public func say(_ text: String) throws(GameError) {
        try RoomProtocol.checkChat(text)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        state.withLock { state in _ = state.table.hostChat(text) }
    }

    /// Ends the current round unfinished and starts the next one at once (the host's `/new`).
    public func newRound() {
        try? newRound { _ in }
    }

    /// Ends the current round unfinished and starts the next one at once, after `change` changed the rules for it (a new range, say).
    /// - Throws: what `change` throws; nothing changes then.
    public func newRound(changing change: (inout Rules) throws(GameError) -> Void) throws(GameError) {
        let now = session.clock.now
        let failure = state.withLock { state -> GameError? in
            guard state.phase == .running else { return nil }
            do throws(GameError) { try state.table.startRound(at: now, changing: change) } catch { return error }
            state.gameChanged = true
            return nil
        }
        if let failure { throw failure }
    }

    // MARK: Session events

    private func peerChanged(_ change: PeerStateChange) {
        switch change.state {
        case .connected: join(change.peer)
        case .notConnected:
            if case .invitationEnded? = change.reason { privacy?.challengeEnded(change.peer) }
            if case .lost? = change.reason, configuration.awayGracePeriod > .zero {
                let now = session.clock.now
                state.withLock { state in if state.phase == .running { state.table.drop(change.peer.identity, at: now) } }
            } else {
                leave(change.peer)
            }
        case .connecting: break
        }
    }

    /// A player that drained its backlog missed the batches sent meanwhile: it gets a fresh
    /// welcome in the next tick instead.
    private func backlogChanged(_ change: PeerBacklogChange) {
        guard !change.isBacklogged else { return }
        state.withLock { state in if state.phase == .running { state.table.seats.welcomeAgain(change.peer.identity) } }
    }

    func join(_ peer: PeerID) {
        let now = session.clock.now
        let seating = state.withLock { state -> RoomSeats.Seating? in
            guard state.phase == .running else { return nil }
            state.gameChanged = true
            return state.table.join(peer, resumeAfter: state.resuming.removeValue(forKey: peer.identity), at: now)
        }
        switch seating {
        case .newcomer(let player)?: logger.debug("Player joined.", metadata: .game(peer: player.name))
        case .returned(let player)?: logger.debug("Player back in their seat.", metadata: .game(peer: player.name))
        case .full?:
            logger.debug("Room full; a peer was turned away.", metadata: .game(peer: peer.displayName, code: GameError.Code.gameFull.rawValue))
            session.disconnect(peer, reason: GameError.gameFull(configuration.maximumPlayers).message)
        case .badName(let error)?:
            var metadata = Logger.Metadata.game(peer: peer.displayName, code: error.code.rawValue)
            metadata["reason"] = .string(Refusal.invalidName.rawValue)
            metadata["error"] = .string(error.message)
            logger.notice("Peer's name breaks the room's rules; it was turned away.", metadata: metadata)
            session.disconnect(peer, reason: error.message)
        case .alreadySeated?, nil: break
        }
    }

    func leave(_ peer: PeerID) {
        let now = session.clock.now
        let ended = state.withLock { state -> RoundResult? in
            guard state.phase == .running else { return nil }
            state.resuming[peer.identity] = nil
            state.gameChanged = true
            return state.table.leave(peer.identity, at: now)
        }
        if ended != nil { scheduleNextRound() }
    }

    // MARK: Rounds

    /// Starts the next round after ``RoomConfiguration/pauseBetweenRounds``.
    @usableFromInline
    func scheduleNextRound() {
        let pause = configuration.pauseBetweenRounds
        let task = Task { [weak self] in
            try? await Task.sleep(for: pause)
            guard !Task.isCancelled, let self else { return }
            let now = self.session.clock.now
            self.state.withLock { state in
                guard state.phase == .running, state.table.isBetweenRounds else { return }
                state.table.startRound(at: now)
                state.gameChanged = true
            }
        }
        let running = state.withLock { state -> Bool in
            state.pause?.cancel()
            state.pause = state.phase == .running ? task : nil
            return state.phase == .running
        }
        if !running { task.cancel() }
    }
}
