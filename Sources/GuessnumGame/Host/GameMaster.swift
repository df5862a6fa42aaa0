import EventBus
import Foundation
import Logging
import Multipeer
import Synchronization

/// The host's game master: it judges every guess at once, relays chat, runs the rounds and
/// keeps the scores, all through the host's ``Session``.
///
/// It observes the session's events: ``EventName/stateChanged`` adds and removes players,
/// ``EventName/dataReceived`` carries guesses, chat, renames and sync requests. The guesser's
/// verdict is sent at once; everything everyone reads (verdicts, chat, joins, leaves, round
/// ends and starts, scores) is gathered and flushed every
/// ``Rooms/RoomConfiguration/broadcastTick`` as one ``HistoryBatch``, encoded once and sent to
/// all in one call. Newcomers get a ``WelcomeMessage`` in the next flush. A player that stops
/// reading (``Session/isBacklogged(_:)``) gets no batches until it drains, and then a fresh
/// welcome; the session disconnects it if it stays backlogged.
///
/// All state lives in one ``GameTable`` behind one lock, which is never held while sending
/// or posting. Two tasks run while started: the broadcast tick, and the pause after a win;
/// ``stop()`` cancels both. Nothing else is timed, and no work is done per player except in
/// the flush's single send.
///
/// What the game handles on its own is logged. Everything refused is logged once per player and
/// kind at `.notice`, with the player's name as `peer` and the kind as `reason` metadata: a
/// message of an unknown type or that cannot be decoded, a chat line over the limits, a bad
/// name, guesses or chat too fast, messages over the player's budget (see
/// ``Rooms/RoomConfiguration/messagesPerSecond``) and the disconnection of a player that kept
/// sending over it. A failure of
/// the host's own (a send, an encoding, a round that cannot start) at `.warning`, players joining
/// and leaving and rounds starting at `.debug`. A normal game logs nothing at `.warning` or above.
///
/// ```swift
/// let master = try await GameMaster(session: session)
/// master.start()
/// let verdicts = master.events.observe(.verdict) { print($0.displayText) }
/// ```
public final class GameMaster: Sendable {
    /// The host's session.
    public let session: Session
    /// The rules and limits.
    public let configuration: GameConfiguration
    /// Where the game posts what a user interface shows: ``EventName/verdict``,
    /// ``EventName/chat``, ``EventName/playerJoined``, ``EventName/playerLeft``,
    /// ``EventName/playerRenamed``, ``EventName/roundWon``, ``EventName/roundStarted``,
    /// and ``EventName/scoreboardChanged``.
    public let events: EventBus
    /// The host as chat lines name it.
    public let host: PlayerRef
    /// Whether this game goes on from a record (``init(session:configuration:events:resuming:journal:logger:)``'s
    /// `resuming`): its first ``EventName/roundStarted`` is the round it resumed at, not a new one.
    public let isResumed: Bool
    private let logger: Logger

    private enum Phase { case ready, running, stopped }

    private struct State {
        var table: GameTable
        /// Players coming back whose invitation said what they have (``Rooms/JoinRequest/resumeAfter``),
        /// until their link is connected; only players of the game are noted.
        var resuming: [UUID: UInt64] = [:]
        var phase = Phase.ready
        var ticker: Task<Void, Never>?
        var pause: Task<Void, Never>?
    }

    private let state: Mutex<State>
    /// The password gate of a private game; nil when the game is not private.
    private let privacy: RoomPrivacy?
    private let observations = ObservationBag()
    /// Where each tick's changes go to be kept (a store), if anywhere.
    private let journal: (any GameJournalSink)?

    /// Creates the game master of `session` and draws the first round's secret. Call
    /// ``start()`` to begin serving.
    ///
    /// - Throws: ``Rooms/GameError/Code/invalidConfiguration``, or
    ///   ``Rooms/GameError/Code/secretOutOfRange`` when a fixed secret lies outside the range.
    /// - Parameters:
    ///   - resuming: a game kept by a store before the host's program ended (a crash): it goes
    ///     on from there, its players' seats held for them as away, instead of a new game.
    ///   - journal: where each tick's changes are sent to be kept, if anywhere.
    ///   - logger: where the game logs; by default a logger labelled `guessnum.game`.
    public init(
        session: Session, configuration: GameConfiguration = GameConfiguration(), events: EventBus = EventBus(),
        resuming record: GameRecord? = nil, journal: (any GameJournalSink)? = nil,
        logger: Logger = Logger(label: "guessnum.game")
    ) async throws(GameError) {
        try configuration.validate()
        self.session = session
        self.configuration = configuration
        self.events = events
        self.logger = logger
        self.journal = journal
        isResumed = record != nil
        let host = PlayerRef(id: session.localPeer.identity, name: session.localPeer.displayName)
        self.host = host
        var table: GameTable
        if let record {
            table = try GameTable(configuration: configuration, host: host, record: record, at: .now)
        } else {
            let secret = try configuration.secretSource.secret(in: configuration.range)
            let round = try Round(number: 1, range: configuration.range, secret: secret)
            table = GameTable(configuration: configuration, host: host, round: round)
        }
        table.isJournaling = journal != nil
        privacy = configuration.password.map { RoomPrivacy(password: $0, host: host.id, logger: logger) }
        state = Mutex(State(table: table))
    }

    /// The whole game as a store keeps it (to start a store for a new game with).
    public var record: GameRecord { state.withLock { $0.table.record } }

    // MARK: Life cycle

    /// Starts serving: observes the session, adds the peers already connected and starts the
    /// broadcast tick; posts the current round as ``EventName/roundStarted`` (the round resumed
    /// at, when ``isResumed``). Calling it again, or after ``stop()``, does nothing.
    public func start() {
        let tick = configuration.broadcastInterval(players: 0)
        let announcement: RoundStarted? = state.withLock { state in
            guard state.phase == .ready else { return nil }
            state.phase = .running
            observations.add(contentsOf: [
                session.events.observe(.stateChanged) { [weak self] change in self?.peerChanged(change) },
                session.events.observe(.dataReceived) { [weak self] data in self?.received(data) },
                session.events.observe(.backlogChanged) { [weak self] change in self?.backlogChanged(change) },
            ])
            state.ticker = Task { [weak self] in
                var interval = tick
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    interval = self.flush()
                }
            }
            return state.table.roundAnnouncement
        }
        guard let announcement else { return }
        events.post(.roundStarted, announcement)
        // A resumed round that was won already: the next one starts after the usual pause.
        if let reveal = state.withLock({ $0.table.reveal }) { roundWon(reveal, announce: false) }
        for peer in session.connectedPeers { join(peer) }
    }

    /// Stops serving: what the last tick gathered is still sent, then no more answers,
    /// broadcasts or rounds. The session stays connected.
    public func stop() {
        _ = flush()
        let tasks = state.withLock { state in
            defer {
                state.phase = .stopped
                state.ticker = nil
                state.pause = nil
            }
            return [state.ticker, state.pause]
        }
        observations.cancelAll()
        for task in tasks { task?.cancel() }
    }

    deinit {
        stop()
    }

    // MARK: Host actions

    /// Ends the current round (revealing its secret if nobody won) and starts a new one over
    /// `range`, or over the current range when nil, with a new secret.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when a fixed secret lies outside `range`.
    public func newRound(range: GuessRange? = nil) throws(GameError) {
        let range = range ?? state.withLock { $0.table.round.range }
        let secret = try configuration.secretSource.secret(in: range)
        let salt = Salt.random()
        let (ended, started) = try state.withLock { state throws(GameError) in
            state.pause?.cancel()
            state.pause = nil
            return try state.table.startRound(range: range, secret: secret, salt: salt)
        }
        if let ended { events.post(.roundWon, ended) }
        events.post(.roundStarted, started)
    }

    /// The reason a removed player is given when their link is closed.
    public static let removalReason = RoomProtocol.removalReason
    /// The reason every player is given when the host ends the game.
    public static let endReason = RoomProtocol.endReason

    /// Removes the player called `name` (exactly, or the only one whose name looks like it):
    /// their link is closed with ``removalReason``, everyone sees them removed, and for
    /// ``Rooms/RoomConfiguration/removalPeriod`` (or until ``readmit(named:)``) they are turned away,
    /// and so is every newcomer whose name looks like theirs or who comes from their network
    /// (``RemoteAddress/limitGroup(of:)``). Players seated already keep their seats.
    /// - Returns: the player removed, and the address their link came from.
    /// - Throws: ``Rooms/GameError/Code/noSuchPlayer`` when nobody in the game has that name.
    @discardableResult
    public func remove(named name: String) throws(GameError) -> PlayerRemoval {
        let until = ContinuousClock.now + configuration.removalPeriod
        let removed = state.withLock { state in
            let addresses = state.table.seats.addresses
            return state.table.remove(named: name, until: until) { addresses[$0] }
        }
        guard let (player, removal) = removed else { throw .noSuchPlayer(name) }
        logger.debug("Player removed by the host.", metadata: .game(peer: player.player.name))
        session.disconnect(player.peer, reason: Self.removalReason)
        // An away player has no link to close: the seat is freed here.
        if player.isAway { leave(player.peer) }
        return PlayerRemoval(player: player.player, address: removal.address)
    }

    /// Lets the players removed under names that look like `name` join again before their time
    /// is up, with their networks.
    /// - Returns: whom that lets back, oldest removal first.
    /// - Throws: ``Rooms/GameError/Code/noSuchPlayer`` when no removed player had that name.
    @discardableResult
    public func readmit(named name: String) throws(GameError) -> [PlayerRemoval] {
        let lifted = state.withLock { $0.table.readmit(named: name) }
        guard !lifted.isEmpty else { throw .noSuchRemovedPlayer(name) }
        return lifted.map { PlayerRemoval(player: PlayerRef(id: $0.id, name: $0.name), address: $0.address) }
    }

    /// The address the link of player `id` came from, while they are in the game or removed; nil
    /// when it is not known.
    public func address(of id: UUID) -> String? {
        state.withLock { $0.table.seats.address(of: id) }
    }

    /// Whether `peer` may join now: declined when the game is full, or when the host removed
    /// them a short while ago (by identity or by name). Prefer ``admission(of:)-(Invitation)``,
    /// which also turns away the networks of removed players and limits the players per address.
    public func admission(of peer: PeerID) -> InvitationDecision {
        admission(of: peer, from: nil)
    }

    /// Whether `peer`, whose link comes from `address` (nil: not known), may join now: as
    /// ``admission(of:)-(PeerID)``, and declined too when a removed player came from the same
    /// network. It neither limits the players per address nor challenges a password: see
    /// ``admission(of:)-(Invitation)``.
    public func admission(of peer: PeerID, from address: String?) -> InvitationDecision {
        let now = ContinuousClock.now
        return state.withLock { $0.table.seats.admission(of: peer, from: address, at: now) }
    }

    /// Whether the inviter of `invitation` may join now: as ``admission(of:)-(PeerID)``, and declined with
    /// ``Rooms/GameError/tooManyFromAddress(_:)`` when ``Rooms/RoomConfiguration/maximumPlayersPerAddress``
    /// players (counting this invitation, others being decided, and seats held for players of
    /// that address who are away) already come from its address. In a private game (see
    /// ``GameConfiguration/password``) an invitation that may join is then challenged: its
    /// ``Rooms/JoinRequest`` must open a ``Rooms/PasswordExchange``, or it is declined with
    /// ``Rooms/GameError/passwordNeeded`` (or, after several failed exchanges from its network or
    /// from everywhere, ``Rooms/GameError/tooManyWrongPasswords(_:period:)``), and it joins only if
    /// its answer to the challenge confirms the password (otherwise its link is closed with
    /// ``Rooms/GameError/wrongPassword``). A refusal is logged at `.notice` with the address and the
    /// reason.
    public func admission(of invitation: Invitation) -> InvitationDecision {
        RoomAdmission.decide(invitation, hosting: GameProtocol.kind, session: session, privacy: privacy, logger: logger) { request, connected, now in
            state.withLock { state in
                let id = invitation.peer.identity
                let decision = state.table.seats.admit(invitation.peer, from: invitation.remoteAddress, connected: connected, at: now)
                if decision == .accept, let after = request.resumeAfter, state.table.roster[id] != nil { state.resuming[id] = after }
                return decision
            }
        }
    }

    /// Posts the password refusals due by `now`.
    private func postPasswordRefusals(at now: ContinuousClock.Instant) {
        for refusals in privacy?.due(at: now) ?? [] { events.post(.passwordRefusals, refusals) }
    }

    /// Whether this game needs a password.
    public var isPrivate: Bool { configuration.password != nil }

    /// Says `text` to everyone, as the host.
    /// - Throws: ``Rooms/GameError/Code/chatTooLong``.
    public func sendChat(_ text: String) throws(GameError) {
        try RoomProtocol.checkChat(text)
        guard !text.trimmingWhitespace.isEmpty else { return }
        let line = state.withLock { $0.table.hostChat(text) }
        events.post(.chat, line)
    }

    // MARK: Snapshots

    /// Every player, in join order.
    public var players: [GamePlayer] { state.withLock { $0.table.players } }
    /// The number of players.
    public var playerCount: Int { state.withLock { $0.table.roster.count } }
    /// The current round, secret included (it never leaves the host before the reveal).
    public var currentRound: Round { state.withLock { $0.table.round } }
    /// The current round's number.
    public var roundNumber: Int { currentRound.number }
    /// The current round's range.
    public var range: GuessRange { currentRound.range }
    /// The recent judgements of the current round, oldest first.
    public var history: [Judgement] { currentRound.history }
    /// The round before the current one, with its judgements; nil before the second round and
    /// after a resume.
    public var previousRound: FinishedRound? { state.withLock { $0.table.previousRound } }
    /// The scoreboard.
    public var scoreboard: Scoreboard { state.withLock { $0.table.scoreboard } }
    /// The state a newcomer would receive now.
    public var gameState: GameState { state.withLock { $0.table.gameState() } }

    // MARK: Session events

    private func peerChanged(_ change: PeerStateChange) {
        switch change.state {
        case .connected: join(change.peer)
        case .notConnected:
            if case .invitationEnded? = change.reason { privacy?.challengeEnded(change.peer) }
            // A link that dropped (not a goodbye, not the host's own disconnect) keeps its seat.
            if case .lost? = change.reason, configuration.awayGracePeriod > .zero {
                drop(change.peer)
            } else {
                leave(change.peer)
            }
        case .connecting: break
        }
    }

    private func drop(_ peer: PeerID) {
        let now = ContinuousClock.now
        let away: PlayerAway? = state.withLock { state in
            guard state.phase == .running else { return nil }
            return state.table.drop(peer.identity, at: now)
        }
        guard let away else { return }
        logger.debug("Player away; seat held.", metadata: .game(peer: away.player.name))
        events.post(.playerAway, away)
    }

    private func join(_ peer: PeerID) {
        let outcome: GameTable.JoinOutcome? = state.withLock { state in
            guard state.phase == .running else { return nil }
            return state.table.join(peer, resumeAfter: state.resuming.removeValue(forKey: peer.identity))
        }
        switch outcome {
        case .joined(let joined):
            logger.debug("Player joined.", metadata: .game(peer: joined.player.name))
            events.post(.playerJoined, joined)
        case .returned(let back):
            logger.debug("Player back in their seat.", metadata: .game(peer: back.player.name))
            events.post(.playerBack, back)
        case .full:
            logger.debug("Game full; a peer was turned away.", metadata: .game(peer: peer.displayName, code: GameError.Code.gameFull.rawValue))
            session.disconnect(peer, reason: GameError.gameFull(configuration.maximumPlayers).message)
        case .badName(let error):
            var metadata = Logger.Metadata.game(peer: peer.displayName, code: error.code.rawValue)
            metadata["reason"] = .string(Refusal.invalidName.rawValue)
            metadata["error"] = .string(error.message)
            logger.notice("Peer's name breaks the game's rules; it was turned away.", metadata: metadata)
            session.disconnect(peer, reason: error.message)
        case .alreadyPlaying, nil: break
        }
    }

    /// A player that drained its backlog missed the batches sent meanwhile: it gets a fresh
    /// welcome in the next flush instead.
    private func backlogChanged(_ change: PeerBacklogChange) {
        guard !change.isBacklogged else { return }
        state.withLock { state in
            guard state.phase == .running else { return }
            state.table.welcomeAgain(change.peer.identity)
        }
    }

    private func leave(_ peer: PeerID) {
        let left: PlayerLeft? = state.withLock { state in
            guard state.phase == .running else { return nil }
            state.resuming[peer.identity] = nil
            return state.table.leave(peer.identity)
        }
        guard let left else { return }
        logger.debug("Player left.", metadata: .game(peer: left.player.name))
        events.post(.playerLeft, left)
    }

    private func received(_ data: ReceivedData) {
        let peer = data.peer
        guard charge(peer) else { return }
        switch data.messageType {
        case GuessMessage.messageType:
            guard let value = HotPathJSON.guess(in: data.payload) ?? decode(GuessMessage.self, data)?.guess else { return }
            asPlayer(peer) { guess(value, from: peer) }
        case ChatMessage.messageType:
            guard data.payload.count <= RoomProtocol.maximumChatPayloadBytes else {
                let error = GameError.chatTooManyBytes(data.payload.count, limit: RoomProtocol.maximumChatBytes)
                refused(.chatTooLong, from: peer, error: error)
                return reply(GameErrorMessage(error), to: peer)
            }
            guard let message = decode(ChatMessage.self, data) else { return }
            asPlayer(peer) { chat(message.text, from: peer) }
        case RenameRequest.messageType:
            guard let message = decode(RenameRequest.self, data) else { return }
            asPlayer(peer) { rename(peer, to: message.name) }
        case SyncRequest.messageType:
            guard let message = decode(SyncRequest.self, data) else { return }
            asPlayer(peer) { sync(peer, after: message.after) }
        default:
            refused(.unknownType, from: peer, metadata: ["type": .string(data.messageType ?? "raw bytes")])
        }
    }

    /// Charges one message from `peer` to its budget (adding it as a player first when its data
    /// overtook its state change); false when the message is to be ignored unread. A peer over
    /// its budget too often is disconnected with ``Rooms/GameError/messageFlood(perSecond:)``.
    private func charge(_ peer: PeerID) -> Bool {
        let now = ContinuousClock.now
        let charged = { () -> MessageBudget.Decision? in
            self.state.withLock { state in state.phase == .running ? state.table.charge(peer.identity, at: now) : .refused }
        }
        var decision = charged()
        if decision == nil, session.state(of: peer) == .connected {
            join(peer)
            decision = charged()
        }
        switch decision {
        case .allowed?: return true
        case .refused?, nil:
            if decision != nil { refused(.overBudget, from: peer) }
            return false
        case .cutOff?:
            let error = GameError.messageFlood(perSecond: configuration.messagesPerSecond)
            refused(.cutOff, from: peer, error: error)
            session.disconnect(peer, reason: error.message)
            return false
        }
    }

    /// Decodes `data` as `Message`; nil (and the refusal logged) when it is not one.
    private func decode<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            refused(.undecodable, from: data.peer, metadata: ["type": .string(Message.messageType), "error": .string(error.message)])
            return nil
        }
    }

    /// Logs at `.notice` that `peer` was refused for `refusal`, the first time only.
    private func refused(_ refusal: Refusal, from peer: PeerID, error: GameError? = nil, metadata extra: Logger.Metadata = [:]) {
        guard state.withLock({ $0.table.recordRefusal(refusal, by: peer.identity) }) else { return }
        logger.refusal(refusal, from: peer, error: error, metadata: extra)
    }

    /// Runs `action`; when the sender is not a player yet (its data overtook its
    /// state change), adds it and runs `action` again.
    private func asPlayer(_ peer: PeerID, _ action: () -> Bool) {
        if action() { return }
        guard session.state(of: peer) == .connected else { return }
        join(peer)
        _ = action()
    }

    private func guess(_ value: Int64, from peer: PeerID) -> Bool {
        let now = ContinuousClock.now
        let outcome: GameTable.GuessOutcome? = state.withLock { state in
            guard state.phase == .running else { return nil }
            return state.table.guess(value, from: peer.identity, at: now)
        }
        switch outcome {
        case nil: return true
        case .notPlaying: return false
        case .refused(let error):
            refused(.throttled, from: peer, error: error)
            if let error { reply(GameErrorMessage(error), to: peer) }
        case .outOfRange(let error):
            reply(GameErrorMessage(error), to: peer)
        case .judged(let line, let won, let board):
            send { () throws(MultipeerError) in
                try session.send(HotPathJSON.payload(of: line), messageType: JudgedGuess.messageType, to: [peer])
            }
            events.post(.verdict, line)
            if let won { roundWon(won) }
            if let board { events.post(.scoreboardChanged, board) }
        }
        return true
    }

    private func chat(_ text: String, from peer: PeerID) -> Bool {
        request(from: peer, posting: HistoryItem.chat) { table, now in table.chat(text, from: peer.identity, at: now) }
    }

    private func rename(_ peer: PeerID, to name: String) -> Bool {
        request(from: peer, posting: HistoryItem.renamed) { table, now in table.rename(peer.identity, to: name, at: now) }
    }

    /// Carries out a player's request (a chat line, a rename) on the table: posts what it did
    /// as the history item `item` makes of it, or tells the player why it was refused.
    /// Returns false when `peer` is not a player yet.
    private func request<Done: Sendable>(
        from peer: PeerID, posting item: (Done) -> HistoryItem,
        _ body: (inout GameTable, ContinuousClock.Instant) -> GameTable.RequestOutcome<Done>
    ) -> Bool {
        let now = ContinuousClock.now
        let outcome: GameTable.RequestOutcome<Done>? = state.withLock { state in
            guard state.phase == .running else { return nil }
            return body(&state.table, now)
        }
        switch outcome {
        case nil, .ignored: return true
        case .notPlaying: return false
        case .refused(let error):
            refused(Refusal(error), from: peer, error: error)
            if let error { reply(GameErrorMessage(error), to: peer) }
        case .done(let done):
            item(done).post(on: events)
        }
        return true
    }

    private func sync(_ peer: PeerID, after: UInt64?) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.phase == .running else { return true }
            return state.table.requestWelcome(for: peer.identity, at: now, after: after) || state.table.roster[peer.identity] != nil
        }
    }

    // MARK: Rounds

    private func roundWon(_ won: RoundWon, announce: Bool = true) {
        if announce { events.post(.roundWon, won) }
        let pause = configuration.pauseBetweenRounds
        state.withLock { state in
            guard state.phase == .running else { return }
            state.pause?.cancel()
            state.pause = Task { [weak self] in
                try? await Task.sleep(for: pause)
                guard !Task.isCancelled else { return }
                self?.startRound(after: won.round)
            }
        }
    }

    /// Starts the round after `number`, unless the host started one meanwhile.
    private func startRound(after number: Int) {
        let range = state.withLock { $0.table.round.range }
        let salt = Salt.random()
        let secret: Int64
        do { secret = try configuration.secretSource.secret(in: range) } catch {
            return roundNotStarted(number + 1, error)
        }
        let started: RoundStarted?
        do {
            started = try state.withLock { state throws(GameError) -> RoundStarted? in
                guard state.phase == .running, state.table.round.number == number, state.table.round.isWon else { return nil }
                state.pause = nil
                return try state.table.startRound(range: range, secret: secret, salt: salt).started
            }
        } catch {
            return roundNotStarted(number + 1, error)
        }
        if let started { events.post(.roundStarted, started) }
    }

    private func roundNotStarted(_ number: Int, _ error: GameError) {
        var metadata = Logger.Metadata.game(peer: host.name, code: error.code.rawValue)
        metadata["round"] = "\(number)"
        metadata["error"] = .string(error.message)
        logger.warning("Could not start the next round.", metadata: metadata)
    }

    // MARK: Sending

    /// Sends the welcomes and the batch gathered since the last tick; returns how long the
    /// next tick lasts (longer in big games, see ``Rooms/RoomConfiguration/broadcastFramesPerSecond``).
    private func flush() -> Duration {
        let graceDeadline = ContinuousClock.now - configuration.awayGracePeriod
        let (flush, interval, gone) = state.withLock { state -> (GameTable.Flush?, Duration, [PlayerLeft]) in
            let interval = configuration.broadcastInterval(players: state.table.roster.count)
            guard state.phase == .running else { return (nil, interval, []) }
            let gone = state.table.expireAway(before: graceDeadline)
            let flush = state.table.takeFlush(nextInterval: interval)
            // Handed over under the lock, so a store receives the ticks in order.
            if let journal, let changes = state.table.takeJournal() { journal.keep(changes) }
            return (flush, interval, gone)
        }
        for left in gone {
            logger.debug("Player away past the grace period; seat freed.", metadata: .game(peer: left.player.name))
            events.post(.playerLeft, left)
        }
        postPasswordRefusals(at: .now)
        guard let flush else { return interval }
        for (peer, replay) in flush.replays { send(replay, to: peer) }
        if let gameState = flush.state {
            do {
                let payloads = try WelcomeEncoder.encode(gameState, for: flush.welcomes.map(\.player), payloadLimit: payloadLimit(for: WelcomeMessage.messageType))
                for (welcome, payload) in zip(flush.welcomes, payloads) {
                    send { () throws(MultipeerError) in try session.send(payload, messageType: WelcomeMessage.messageType, to: [welcome.peer]) }
                }
            } catch {
                logger.warning("Could not encode a welcome.", metadata: .game(peer: host.name).merging(["error": "\(error)"]) { $1 })
            }
        }
        if let batch = flush.batch {
            do {
                for payload in try FanOut.encode(batch, payloadLimit: payloadLimit(for: HistoryBatch.messageType)) {
                    send { () throws(MultipeerError) in
                        try session.sendToAll(payload, messageType: HistoryBatch.messageType, skippingBacklogged: true, excluding: flush.away)
                    }
                }
            } catch {
                logger.warning("Could not encode a broadcast.", metadata: .game(peer: host.name).merging(["error": "\(error)"]) { $1 })
            }
        }
        return interval
    }

    /// Sends `replay` to the player `peer` came back as; one too big for a frame is replaced by
    /// a fresh welcome in the next tick.
    private func send(_ replay: ReplayMessage, to peer: PeerID) {
        let payload: Data
        do { payload = try JSONEncoder().encode(replay) } catch {
            logger.warning("Could not encode a replay.", metadata: .game(peer: peer.displayName).merging(["error": "\(error)"]) { $1 })
            return
        }
        guard payload.count <= payloadLimit(for: ReplayMessage.messageType) else {
            state.withLock { $0.table.welcomeAgain(peer.identity) }
            return
        }
        send { () throws(MultipeerError) in try session.send(payload, messageType: ReplayMessage.messageType, to: [peer]) }
    }

    /// The most payload bytes a message of `type` may carry in one frame (the codec's rule).
    private func payloadLimit(for type: String) -> Int {
        FrameCodec.maximumPayloadLength(messageType: type, maximumFrameLength: session.configuration.maximumFrameLength)
    }

    private func reply<Message: GameMessage>(_ message: Message, to peer: PeerID) {
        send { () throws(MultipeerError) in try session.send(message, to: [peer]) }
    }

    /// Runs a send; a peer that left meanwhile, or a closed session, is not worth a report.
    private func send(_ body: () throws(MultipeerError) -> Void) {
        do { try body() } catch {
            switch error.code {
            case .peerNotConnected, .sessionClosed: break
            default:
                logger.warning("A send failed.", metadata: .game(peer: host.name, code: error.code.rawValue).merging(["error": .string(error.message)]) { $1 })
            }
        }
    }

}
