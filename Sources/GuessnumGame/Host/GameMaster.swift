import EventBus
import Foundation
import Logging
import Multipeer
import Rooms

/// The host's game master: a room of guess-the-number (``Rooms/RoomHost`` running
/// ``GuessRules``, on the game's own wire, ``GuessCodec``) with an event bus around it for the
/// screens that observe one kind of event, optionally kept by a store and resumed from one as
/// every room is (the benchmark's host and the tests'; the `guessnum` program hosts the game as
/// it hosts every game).
///
/// The room judges every guess at once (the guesser's verdict is sent straight away), relays
/// chat, runs the rounds, holds the seats of players whose link dropped, and broadcasts what
/// happened every ``Rooms/RoomConfiguration/broadcastTick`` as one ``HistoryBatch`` (several
/// when it does not fit a frame); newcomers get a ``WelcomeMessage``, players back after a drop
/// a ``ReplayMessage``. A player that stops reading gets no batches until it drains, then a
/// fresh welcome. Every protection is the room's (budgets, throttles, caps, names, the password
/// gate, removals).
///
/// After each tick everything that happened is posted on ``events`` (``EventName/verdict``,
/// ``EventName/chat``, ``EventName/playerJoined``, ``EventName/playerLeft``,
/// ``EventName/playerAway``, ``EventName/playerBack``, ``EventName/playerRenamed``,
/// ``EventName/roundWon``, ``EventName/roundStarted``, ``EventName/scoreboardChanged``,
/// ``EventName/passwordRefusals``), every guess included even when the broadcast only counted it.
///
/// What the game handles on its own is logged as the room logs it: everything refused once per
/// player and kind at `.notice` (with `peer` and `reason` metadata), a failure of the host's own
/// at `.warning`, players joining and leaving at `.debug`.
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
    /// Where the game posts what a user interface shows (see above).
    public let events: EventBus
    /// The host as chat lines name it.
    public let host: PlayerRef
    /// Whether this game goes on from a kept room (``init(session:configuration:events:resuming:showsActivity:logger:)``'s
    /// `resuming`): its first ``EventName/roundStarted`` is the round it resumed at, not a new one.
    public let isResumed: Bool
    /// The room that runs the game (what a screen shows it through).
    public let room: RoomHost<GuessRules>
    private let ticks: RoomTicks<GuessRules>

    /// Creates the game master of `session` and draws the first round's secret. Call
    /// ``start()`` to begin serving.
    ///
    /// - Throws: ``Rooms/GameError/Code/invalidConfiguration``, or
    ///   ``Rooms/GameError/Code/secretOutOfRange`` when a fixed secret lies outside the range.
    /// - Parameters:
    ///   - resuming: a game kept by a store before the host's program ended (a crash): it goes
    ///     on from there, its players' seats held for them as away, instead of a new game.
    ///   - showsActivity: whether ``room``'s activity stream tells a screen everything that
    ///     happens (a host screen reads it there); off by default, when the events are posted on
    ///     ``events`` alone.
    ///   - logger: where the game logs; by default a logger labelled `guessnum.game`.
    public convenience init(
        session: Session, configuration: GameConfiguration = GameConfiguration(), events: EventBus = EventBus(),
        resuming snapshot: RoomSnapshot<GuessRules>? = nil, showsActivity: Bool = false, logger: Logger = Logger(label: "guessnum.game")
    ) async throws(GameError) {
        try await self.init(
            session: session, configuration: configuration, events: events, resuming: snapshot, keptBy: nil, showsActivity: showsActivity,
            logger: logger)
    }

    /// ``init(session:configuration:events:resuming:showsActivity:logger:)``, its room kept by
    /// `store` (a `RoomStore`, as every game's) after each tick.
    package init(
        session: Session, configuration: GameConfiguration = GameConfiguration(), events: EventBus = EventBus(),
        resuming snapshot: RoomSnapshot<GuessRules>? = nil, keptBy store: (any RoomObserver<GuessRules>)?, showsActivity: Bool = false,
        logger: Logger = Logger(label: "guessnum.game")
    ) async throws(GameError) {
        try configuration.validate()
        self.session = session
        self.configuration = configuration
        self.events = events
        isResumed = snapshot != nil
        host = PlayerRef(id: session.localPeer.identity, name: session.localPeer.displayName)
        var settings = GuessSettings(range: configuration.range)
        settings.welcomeHistoryLimit = configuration.welcomeHistoryLimit
        settings.scoreboardLimit = configuration.scoreboardLimit
        var rules = GuessRules(settings: settings, secretSource: configuration.secretSource)
        if snapshot == nil { try rules.prepareRound(over: configuration.range) }
        var room = configuration.room
        room.maximumLinesPerTick = configuration.maximumGuessLinesPerTick
        let ticks = RoomTicks(store: store, events: events, leavesActivity: showsActivity) { sequence, event, bus in
            event.numbered(sequence).post(on: bus)
        }
        self.ticks = ticks
        self.room = RoomHost(
            session: session, rules: rules, configuration: room, moveThrottle: configuration.guessThrottle, password: configuration.password,
            logger: logger, observer: ticks
        ) { table in
            if let snapshot { table.resume(from: snapshot, at: session.clock.now) }
        }
    }

    // MARK: Life cycle

    /// Starts serving: observes the session, adds the peers already connected and starts the
    /// broadcast tick; the current round is posted as ``EventName/roundStarted`` (the round
    /// resumed at, at once, when ``isResumed``; a new game's first round with the first tick).
    /// Calling it again, or after ``stop()``, does nothing.
    public func start() {
        if isResumed, let round = currentRoundIfAny {
            let announcement = RoundStarted(
                sequence: room.withTable(\.lastSequence), round: round.number, range: round.range, commitment: round.commitment,
                hostChoseSecret: configuration.secretSource.isChosenByHost)
            if ticks.announce() { events.post(.roundStarted, announcement) }
        }
        room.start()
    }

    /// Stops serving: what the last tick gathered is still sent, then no more answers,
    /// broadcasts or rounds. The session stays connected.
    public func stop() {
        room.stop()
    }

    deinit {
        room.stop()
    }

    // MARK: Host actions

    /// Ends the current round (revealing its secret if nobody won) and starts a new one over
    /// `range`, or over the current range when nil, with a new secret.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when a fixed secret lies outside `range`.
    public func newRound(range: GuessRange? = nil) throws(GameError) {
        try room.newRound { rules throws(GameError) in try rules.prepareRound(over: range ?? rules.currentRound?.range ?? rules.settings.range) }
    }

    /// The reason a removed player is given when their link is closed.
    public static let removalReason = RoomProtocol.removalReason
    /// The reason every player is given when the host ends the game.
    public static let endReason = RoomProtocol.endReason

    /// Removes the player called `name` (see ``Rooms/RoomHost/remove(named:)``).
    /// - Returns: the player removed, and the address their link came from.
    /// - Throws: ``Rooms/GameError/Code/noSuchPlayer`` when nobody in the game has that name.
    @discardableResult
    public func remove(named name: String) throws(GameError) -> PlayerRemoval {
        try room.remove(named: name)
    }

    /// Lets the players removed under names that look like `name` join again before their time
    /// is up, with their networks.
    /// - Returns: whom that lets back, oldest removal first.
    /// - Throws: ``Rooms/GameError/Code/noSuchPlayer`` when no removed player had that name.
    @discardableResult
    public func readmit(named name: String) throws(GameError) -> [PlayerRemoval] {
        try room.readmit(named: name)
    }

    /// The address the link of player `id` came from, while they are in the game or removed; nil
    /// when it is not known.
    public func address(of id: UUID) -> String? {
        room.address(of: id)
    }

    /// Whether `peer` may join now: declined when the game is full, or when the host removed
    /// them a short while ago (by identity or by name). Prefer ``admission(of:)-(Invitation)``.
    public func admission(of peer: PeerID) -> InvitationDecision {
        admission(of: peer, from: nil)
    }

    /// Whether `peer`, whose link comes from `address` (nil: not known), may join now; see
    /// ``Rooms/RoomHost/admission(of:from:)``.
    public func admission(of peer: PeerID, from address: String?) -> InvitationDecision {
        room.admission(of: peer, from: address)
    }

    /// Whether the inviter of `invitation` may join now; see ``Rooms/RoomHost/admission(of:)``: the
    /// seats, the players per address, and in a private game the password.
    public func admission(of invitation: Invitation) -> InvitationDecision {
        room.admission(of: invitation)
    }

    /// Whether this game needs a password.
    public var isPrivate: Bool { configuration.password != nil }

    /// Says `text` to everyone, as the host.
    /// - Throws: ``Rooms/GameError/Code/chatTooLong``.
    public func sendChat(_ text: String) throws(GameError) {
        try room.say(text)
    }

    // MARK: Snapshots

    /// Every player, in join order.
    public var players: [GamePlayer] {
        room.withTable { table in
            let round = table.rules.currentRound
            return table.seats.roster.members.values.sorted { $0.order < $1.order }.map { member in
                GamePlayer(
                    player: member.player, peer: member.peer, guessesThisRound: round?.guesses(by: member.player.id) ?? 0,
                    wins: table.rules.scoreboard.entry(for: member.player.id)?.wins ?? 0, awaySince: table.seats.away[member.player.id])
            }
        }
    }
    /// The number of players.
    public var playerCount: Int { room.playerCount }
    /// The current round, secret included (it never leaves the host before the reveal).
    public var currentRound: Round { currentRoundIfAny! }
    private var currentRoundIfAny: Round? { room.rules.currentRound }
    /// The current round's number.
    public var roundNumber: Int { currentRound.number }
    /// The current round's range.
    public var range: GuessRange { currentRound.range }
    /// The recent judgements of the current round, oldest first.
    public var history: [Judgement] { currentRound.history }
    /// The round before the current one, with its judgements; nil before the second round and
    /// after a resume.
    public var previousRound: FinishedRound? { room.rules.previousRound }
    /// The scoreboard.
    public var scoreboard: Scoreboard { room.rules.scoreboard }
    /// The state a newcomer would receive now.
    public var gameState: GameState { room.withTable { GuessCodec.state(of: $0.welcome(for: host)) } }
}
