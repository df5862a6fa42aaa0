import Foundation
@testable import GuessnumGame
import Multipeer
@testable import Rooms

/// The host's game as a value, as the tests of its rules, journal and removals read it: a room's
/// table (``RoomTable``) running ``GuessRules`` with a game master's configuration, its results
/// in the game's own terms (verdicts, the history batch, the welcome's state, the replay, what
/// a store keeps).
struct GuessTable {
    enum JoinOutcome {
        case joined(PlayerJoined)
        case returned(PlayerBack)
        case alreadyPlaying
        case full
        case badName(GameError)
    }

    enum GuessOutcome {
        case judged(JudgedGuess, won: RoundWon?, scoreboard: ScoreboardUpdate?)
        case refused(GameError?)
        case outOfRange(GameError)
        case notPlaying
    }

    enum RequestOutcome<Value> {
        case done(Value)
        case ignored
        case refused(GameError?)
        case notPlaying
    }

    struct Flush {
        var welcomes: [(peer: PeerID, player: PlayerRef)] = []
        var replays: [(peer: PeerID, replay: ReplayMessage)] = []
        var state: GameState?
        var batch: HistoryBatch?
    }

    static let resumeGap = RoomSnapshot<GuessRules>.resumeGap

    let configuration: GuessHosting
    var table: RoomTable<GuessRules>
    /// What a store holds after the ticks so far, kept as `RoomStore` keeps it: a snapshot
    /// when the rules ask for one, else the tick's entry applied to the last; nil before the first tick.
    private(set) var kept: RoomSnapshot<GuessRules>?
    /// The ticks kept so far: as a fresh snapshot, and as an entry.
    private(set) var keptSnapshots = 0
    private(set) var keptEntries = 0

    /// A new game of `configuration` hosted by `host`: round 1 over its range with `secret`.
    init(configuration: GuessHosting, host: PlayerRef, secret: Int64) throws {
        self.configuration = configuration
        var rules = GuessRules(settings: configuration.settings, secretSource: configuration.secretSource)
        try rules.prepareRound(over: configuration.settings.range, secret: secret, salt: .random())
        // Round 1 goes on from the start, unnumbered, as a game given its first round does.
        _ = rules.startRound(1, players: [])
        table = RoomTable(rules: rules, configuration: configuration.room, host: host, moveThrottle: configuration.guessThrottle)
        table.keepsEveryItem = true
        table.resume(round: 1, lastSequence: 0, gap: 0, players: [], wins: [:], at: .now)
    }

    /// The game `kept` by a store, resumed at `now` as a room resumes it.
    init(configuration: GuessHosting, host: PlayerRef, kept: RoomSnapshot<GuessRules>, at now: ContinuousClock.Instant) throws {
        self.configuration = configuration
        let rules = GuessRules(settings: configuration.settings, secretSource: configuration.secretSource)
        table = RoomTable(rules: rules, configuration: configuration.room, host: host, moveThrottle: configuration.guessThrottle)
        table.keepsEveryItem = true
        table.resume(from: kept, gap: Self.resumeGap, at: now)
    }


    // MARK: The game

    var round: Round { table.rules.currentRound! }
    var scoreboard: Scoreboard { table.rules.scoreboard }
    var reveal: RoundWon? { table.rules.reveal }
    var lastSequence: UInt64 { table.lastSequence }

    var players: [SeatedPlayer] { SeatedPlayer.all(at: table) }

    mutating func join(_ peer: PeerID, resumeAfter: UInt64? = nil) -> JoinOutcome {
        switch table.join(peer, resumeAfter: resumeAfter) {
        case .newcomer(let player): .joined(PlayerJoined(sequence: table.lastSequence, player: player, playerCount: table.seats.roster.count))
        case .returned(let player): .returned(PlayerBack(sequence: table.lastSequence, player: player))
        case .alreadySeated: .alreadyPlaying
        case .full: .full
        case .badName(let error): .badName(error)
        }
    }

    /// Player `id`'s link dropped; whether they were a player not away already.
    mutating func drop(_ id: UUID, at now: ContinuousClock.Instant) -> Bool {
        let before = table.lastSequence
        table.drop(id, at: now)
        return table.lastSequence != before
    }

    /// Player `id` gave up their seat; whether they had one.
    mutating func leave(_ id: UUID) -> Bool {
        let before = table.lastSequence
        table.leave(id)
        return table.lastSequence != before
    }

    mutating func guess(_ value: Int64, from id: UUID, at now: ContinuousClock.Instant) -> GuessOutcome {
        switch table.move(value, from: id, at: now) {
        case .played(.verdict(let line)?, let sequence?, _):
            var judged = line
            judged.sequence = sequence
            guard line.verdict == .correct else { return .judged(judged, won: nil, scoreboard: nil) }
            let board = ScoreboardUpdate(sequence: table.lastSequence, entries: scoreboard.top(configuration.settings.scoreboardLimit), totalEntries: scoreboard.count)
            return .judged(judged, won: reveal, scoreboard: board)
        case .played: return .notPlaying
        case .refused(let refusal): return .outOfRange(.received(code: refusal.code, message: refusal.message))
        case .throttled(let error): return .refused(error)
        case .notSeated: return .notPlaying
        }
    }

    mutating func chat(_ text: String, from id: UUID, at now: ContinuousClock.Instant) -> RequestOutcome<RelayedChat> {
        switch table.chat(text, from: id, at: now) {
        case .relayed(let line): .done(line)
        case .ignored: .ignored
        case .refused(let error): .refused(error)
        case .notSeated: .notPlaying
        }
    }

    mutating func hostChat(_ text: String) -> RelayedChat { table.hostChat(text) }

    mutating func rename(_ id: UUID, to name: String, at now: ContinuousClock.Instant) -> RequestOutcome<PlayerRenamed> {
        switch table.rename(id, to: name, at: now) {
        case .renamed(let previous, let player): .done(PlayerRenamed(sequence: table.lastSequence, player: player, previousName: previous))
        case .unchanged: .ignored
        case .refused(let error): .refused(error)
        case .notSeated: .notPlaying
        }
    }

    mutating func requestWelcome(for id: UUID, at now: ContinuousClock.Instant, after: UInt64? = nil) -> Bool {
        table.seats.requestWelcome(for: id, at: now, after: after)
    }

    mutating func startRound(range: GuessRange, secret: Int64, salt: Salt) throws(GameError) -> (ended: RoundWon?, started: RoundStarted) {
        try table.startRound { rules throws(GameError) in try rules.prepareRound(over: range, secret: secret, salt: salt) }
        let taken = takeFlush().batch?.items ?? []
        var ended: RoundWon?
        var started: RoundStarted?
        for item in taken {
            if case .roundWon(let won) = item { ended = won }
            if case .roundStarted(let start) = item { started = start }
        }
        return (ended, started!)
    }

    // MARK: Flushing

    mutating func takeFlush() -> Flush {
        let taken = table.takeFlush()
        if !taken.everything.isEmpty { keep(taken.everything) }
        var flush = Flush()
        flush.welcomes = taken.welcomes.map { ($0.peer, $0.welcome.you) }
        flush.state = taken.welcomes.first.map { GuessCodec.state(of: $0.welcome) }
        flush.replays = taken.replays.map { ($0.peer, ReplayMessage(after: $0.after, items: $0.items.map(\.historyItem))) }
        flush.batch = taken.batch.map { batch in
            HistoryBatch(
                items: batch.items.map(\.historyItem), omittedGuesses: batch.omittedEvents, omittedJoins: batch.omittedJoins,
                omittedLeaves: batch.omittedLeaves, playerCount: batch.playerCount)
        }
        return flush
    }

    func gameState() -> GameState {
        GuessCodec.state(of: table.welcome(for: table.host))
    }

    /// Keeps the tick of `items` as a store would.
    private mutating func keep(_ items: [RoomItem<GuessRules>]) {
        if kept != nil, let entry = table.journalEntry(for: items) {
            kept?.apply(entry)
            keptEntries += 1
        } else {
            kept = table.snapshot
            keptSnapshots += 1
        }
    }

    // MARK: Removals

    func player(named name: String) -> SeatedPlayer? {
        table.seats.member(named: name).flatMap { member in players.first { $0.player.id == member.player.id } }
    }

    mutating func remove(named name: String, until: ContinuousClock.Instant, address: (UUID) -> String?) -> (SeatedPlayer, RoomSeats.Removal)? {
        guard let player = player(named: name), let (_, removal) = table.seats.remove(named: name, until: until, address: address) else { return nil }
        return (player, removal)
    }

    mutating func readmit(named name: String) -> [RoomSeats.Removal] { table.seats.readmit(named: name) }

    mutating func removal(barring id: UUID, named name: String, from address: String?, at now: ContinuousClock.Instant) -> RoomSeats.Removal? {
        table.seats.removal(barring: id, named: name, from: address, at: now)
    }
}
