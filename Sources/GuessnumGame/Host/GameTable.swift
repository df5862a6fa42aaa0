import Foundation
import Multipeer

/// The host's whole game as a value: the round, the scoreboard, the players and what waits to
/// be broadcast. Every method decides and records; none performs I/O.
///
/// ``GameMaster`` keeps one table behind its lock and carries out what the table returns.
/// Each broadcast item gets the next sequence number, so guests can tell what a welcome
/// already covered.
struct GameTable: Sendable {
    enum JoinOutcome: Sendable {
        case joined(PlayerJoined)
        /// A player who was away took their seat back.
        case returned(PlayerBack)
        case alreadyPlaying
        case full
        /// The peer's name breaks the game's rules (``Rooms/RoomProtocol/checkName(_:)``).
        case badName(GameError)
    }

    enum GuessOutcome: Sendable {
        /// Judged: the line for the guesser, and the reveal and scores when it won.
        case judged(JudgedGuess, won: RoundWon?, scoreboard: ScoreboardUpdate?)
        /// Throttled; the error when the guest should be told.
        case refused(GameError?)
        /// Outside the round's range: the guesser is told, and nobody else (nothing is broadcast
        /// or kept).
        case outOfRange(GameError)
        case notPlaying
    }

    enum RequestOutcome<Value: Sendable>: Sendable {
        case done(Value)
        /// Nothing to do (an empty chat line, the same name).
        case ignored
        /// Refused; the error when the guest should be told.
        case refused(GameError?)
        case notPlaying
    }

    /// What a flush must send: welcomes (all sharing one state) and the broadcast batch.
    struct Flush: Sendable {
        var welcomes: [(peer: PeerID, player: PlayerRef)] = []
        /// What players that came back after a drop missed, each sent before the batch.
        var replays: [(peer: PeerID, replay: ReplayMessage)] = []
        var state: GameState?
        var batch: HistoryBatch?
        /// Players away when the flush was taken: the batch is not for them. One coming back
        /// may have its new link before the host has seated it; it gets what it missed as a
        /// replay once seated, before any batch (a batch first would carry it past its gap).
        var away: Set<UUID> = []
    }

    let configuration: GameConfiguration
    let host: PlayerRef
    private(set) var round: Round
    private(set) var scoreboard = Scoreboard()
    /// Who sits at the table: players, held seats, removals, welcomes and replays owed.
    var seats: RoomSeats
    /// The players, by identity.
    var roster: PlayerRoster { seats.roster }
    /// The reveal of the current round, once it is over.
    private(set) var reveal: RoundWon?
    /// The round before the current one, with its judgements (none before a second round, or
    /// after a resume).
    private(set) var previousRound: FinishedRound?
    private(set) var lastSequence: UInt64 = 0
    /// The scoreboard's top as last broadcast.
    private(set) var topScores: [Scoreboard.Entry] = []
    private var fanOut: FanOut
    /// The latest items broadcast, for the replays the seats owe (``RoomSeats/takeReplays()``).
    private var recent: RecentItems<HistoryItem>
    /// Whether what a store keeps is noted for ``takeJournal()`` (off: nothing is noted).
    var isJournaling = false
    private var journal = PendingJournal()
    /// The sequence number the last ``takeJournal()`` handed on.
    private var journaledSequence: UInt64 = 0
    /// How far past its record's last sequence number a resumed game numbers its items: the
    /// earlier life may have broadcast items after its last journal reached the store, and a
    /// number is never given twice.
    static let resumeGap: UInt64 = 1_000_000

    /// What changed since the last ``takeJournal()``, by identity where the latest value is
    /// read at the end of the tick.
    private struct PendingJournal {
        var roundStarted = false
        var guesses: [GuessRecord] = []
        var players: Set<UUID> = []
        var scores: Set<UUID> = []
    }
    /// Players the host removed, by identity, while they may not come back.
    var removals: [UUID: Removal] { seats.removals }
    /// Players whose link dropped, by identity, and since when: their seats are held.
    var away: [UUID: ContinuousClock.Instant] { seats.away }

    /// A player the host removed (see ``RoomSeats/Removal``).
    typealias Removal = RoomSeats.Removal

    init(configuration: GameConfiguration, host: PlayerRef, round: Round) {
        self.configuration = configuration
        self.host = host
        self.round = round
        seats = RoomSeats(configuration: configuration.room, host: host, moveThrottle: configuration.guessThrottle)
        fanOut = FanOut(maximumGuessLinesPerTick: configuration.maximumGuessLinesPerTick)
        recent = RecentItems(limit: configuration.replayLimit)
    }

    /// The game of `record`, resumed after the host's crash at `now`: the round judged again
    /// guess by guess (same secret, salt and commitment), the scoreboard, and every player
    /// in a seat held for them as away (they come back by themselves). Sequence numbers go on
    /// ``resumeGap`` past the record's, and a player back with a number from before gets a fresh
    /// welcome, never a replay: what the earlier life broadcast is not kept.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when the record's secret is not in its range.
    init(configuration: GameConfiguration, host: PlayerRef, record: GameRecord, at now: ContinuousClock.Instant) throws(GameError) {
        var round = try Round(number: record.round.number, range: record.round.range, secret: record.round.secret, salt: record.round.salt)
        for guess in record.guesses { _ = round.judge(guess: guess.guess, by: guess.player) }
        self.init(configuration: configuration, host: host, round: round)
        for entry in record.scores { scoreboard.set(entry) }
        topScores = scoreboard.top(configuration.scoreboardLimit)
        lastSequence = record.lastSequence &+ Self.resumeGap
        journaledSequence = record.lastSequence
        recent = RecentItems(limit: configuration.replayLimit, floor: lastSequence)
        if let winner = round.winner {
            reveal = RoundWon(
                sequence: lastSequence, round: round.number, range: round.range, commitment: round.commitment, winner: winner,
                secret: round.secret, salt: round.salt, winningGuesses: round.winningGuessCount, totalGuesses: round.countedGuesses,
                hostChoseSecret: configuration.secretSource.isChosenByHost)
        }
        for player in record.players {
            seats.holdSeat(for: PlayerRef(id: player.id, name: player.name), displayName: player.displayName, at: now, sequence: lastSequence)
        }
    }

    /// What changed since the last call that a store must keep; nil when nothing did (or when
    /// not ``isJournaling``). Items that change nothing kept (chat, a player away) still move
    /// the sequence number on, and that is journaled too.
    mutating func takeJournal() -> GameJournal? {
        guard isJournaling else { return nil }
        defer { journal = PendingJournal() }
        var taken = GameJournal()
        if journal.roundStarted { taken.roundStarted = roundRecord }
        taken.guesses = journal.guesses
        // In join order, so that a record lists its players as the game does.
        for id in journal.players.sorted(by: { (roster[$0]?.order ?? .max) < (roster[$1]?.order ?? .max) }) {
            if let member = roster[id] {
                taken.players.append(Self.record(of: member))
            } else {
                taken.playersGone.append(id)
            }
        }
        taken.scores = journal.scores.compactMap { scoreboard.entry(for: $0) }
        guard !taken.isEmpty || lastSequence != journaledSequence else { return nil }
        taken.lastSequence = lastSequence
        journaledSequence = lastSequence
        return taken
    }

    /// The whole game as a store keeps it, to start a store with (then kept up to date with
    /// ``takeJournal()``). The guesses are those the round's history still holds: all of them
    /// unless the round has judged more than ``Round/historyLimit``.
    var record: GameRecord {
        var guesses: [GuessRecord] = []
        guesses.reserveCapacity(round.history.count)
        for judgement in round.history { guesses.append(GuessRecord(round: round.number, player: judgement.player, guess: judgement.guess)) }
        return GameRecord(
            round: roundRecord, guesses: guesses, players: roster.members.values.sorted { $0.order < $1.order }.map(Self.record(of:)),
            scores: scoreboard.ranked, lastSequence: lastSequence)
    }

    /// The current round as a store keeps it.
    private var roundRecord: RoundRecord {
        RoundRecord(number: round.number, range: round.range, secret: round.secret, salt: round.salt)
    }

    /// A player's seat as a store keeps it.
    private static func record(of member: PlayerRoster.Member) -> PlayerRecord {
        PlayerRecord(id: member.player.id, displayName: member.peer.displayName, name: member.player.name)
    }

    /// The current round as an announcement (for hosts that show it at start).
    var roundAnnouncement: RoundStarted {
        RoundStarted(
            sequence: lastSequence, round: round.number, range: round.range, commitment: round.commitment,
            hostChoseSecret: configuration.secretSource.isChosenByHost)
    }

    // MARK: Players

    /// Seats `peer`: a newcomer, or a player back in a held seat. `resumeAfter` (from a player
    /// that comes back) is the last broadcast item it has: it gets what came after, if kept.
    mutating func join(_ peer: PeerID, resumeAfter: UInt64? = nil) -> JoinOutcome {
        switch seats.seat(peer, resumeAfter: resumeAfter) {
        case .returned(let player):
            let back = PlayerBack(sequence: nextSequence(), player: player)
            fanOut.enqueue(.back(back))
            return .returned(back)
        case .newcomer(let player):
            if isJournaling { journal.players.insert(peer.identity) }
            let joined = PlayerJoined(sequence: nextSequence(), player: player, playerCount: roster.count)
            seats.joined(peer.identity, at: joined.sequence)
            fanOut.enqueue(.joined(joined))
            return .joined(joined)
        case .alreadySeated: return .alreadyPlaying
        case .full: return .full
        case .badName(let error): return .badName(error)
        }
    }

    /// Marks the player `id` away at `now` (their link dropped): the seat, name, wins, guesses
    /// and throttles stay until they come back (``join(_:resumeAfter:)``) or ``expireAway(before:)``.
    /// Nil when `id` is not a player, or is away already.
    mutating func drop(_ id: UUID, at now: ContinuousClock.Instant) -> PlayerAway? {
        guard let player = seats.drop(id, at: now) else { return nil }
        let item = PlayerAway(sequence: nextSequence(), player: player, holdSeconds: configuration.seatHoldSeconds ?? 0)
        fanOut.enqueue(.away(item))
        return item
    }

    /// Frees the seats of players away since before `deadline`; what their leaving says.
    mutating func expireAway(before deadline: ContinuousClock.Instant) -> [PlayerLeft] {
        seats.expired(before: deadline).compactMap { leave($0) }
    }

    mutating func leave(_ id: UUID) -> PlayerLeft? {
        guard let (member, removed) = seats.unseat(id) else { return nil }
        if isJournaling { journal.players.insert(id) }
        let left = PlayerLeft(sequence: nextSequence(), player: member.player, playerCount: roster.count, removedByHost: removed)
        fanOut.enqueue(.left(left))
        return left
    }

    /// The player called `name` (``RoomSeats/member(named:)``); nil when there is none.
    func player(named name: String) -> GamePlayer? {
        seats.member(named: name).map(gamePlayer(of:))
    }

    /// Records that the host removes the player called `name` (see ``player(named:)``), whose
    /// link came from `address`, until `until`; nil when nobody in the game has that name.
    mutating func remove(named name: String, until: ContinuousClock.Instant, address: (UUID) -> String?) -> (GamePlayer, Removal)? {
        seats.remove(named: name, until: until, address: address).map { (gamePlayer(of: $0.0), $0.1) }
    }

    /// Lifts every removal of a player whose name looks like `name` (``RoomSeats/readmit(named:)``).
    mutating func readmit(named name: String) -> [Removal] {
        seats.readmit(named: name)
    }

    /// The removal that turns away the peer `id` called `name`, from `address`, at `now`
    /// (``RoomSeats/removal(barring:named:from:at:)``).
    mutating func removal(barring id: UUID, named name: String, from address: String?, at now: ContinuousClock.Instant) -> Removal? {
        seats.removal(barring: id, named: name, from: address, at: now)
    }

    /// Whether `id` is a removed player still turned away at `now` (forgets those whose time is up).
    mutating func isRemoved(_ id: UUID, at now: ContinuousClock.Instant) -> Bool {
        seats.isRemoved(id, at: now)
    }

    mutating func rename(_ id: UUID, to name: String, at now: ContinuousClock.Instant) -> RequestOutcome<PlayerRenamed> {
        switch seats.rename(id, to: name, at: now) {
        case .notSeated: return .notPlaying
        case .unchanged: return .ignored
        case .refused(let error): return .refused(error)
        case .renamed(let previous, let player):
            scoreboard.rename(player)
            if isJournaling {
                journal.players.insert(id)
                if scoreboard.entry(for: id) != nil { journal.scores.insert(id) }
            }
            let renamed = PlayerRenamed(sequence: nextSequence(), player: player, previousName: previous)
            fanOut.enqueue(.renamed(renamed))
            return .done(renamed)
        }
    }

    /// Queues a fresh welcome for player `id` (``RoomSeats/welcomeAgain(_:)``).
    mutating func welcomeAgain(_ id: UUID) {
        seats.welcomeAgain(id)
    }

    /// Schedules a fresh welcome for player `id`, or with `after` a replay of what came after
    /// that item; false when it is not a player or asks too often.
    mutating func requestWelcome(for id: UUID, at now: ContinuousClock.Instant, after: UInt64? = nil) -> Bool {
        seats.requestWelcome(for: id, at: now, after: after)
    }

    // MARK: Budgets

    /// Charges one message from player `id` to its budget; nil when it is not a player.
    mutating func charge(_ id: UUID, at now: ContinuousClock.Instant) -> MessageBudget.Decision? {
        seats.charge(id, at: now)
    }

    /// Records that player `id` was refused for `refusal`; true the first time (the time to log it).
    mutating func recordRefusal(_ refusal: Refusal, by id: UUID) -> Bool {
        seats.recordRefusal(refusal, by: id)
    }

    // MARK: Guesses and chat

    mutating func guess(_ value: Int64, from id: UUID, at now: ContinuousClock.Instant) -> GuessOutcome {
        // One look-up that copies only the player, not the whole member (its peer, throttles and
        // refusals cost a retain and a release each, per guess).
        guard let (player, admission) = seats.update(id, { ($0.player, $0.moveThrottle.admit(at: now)) }) else { return .notPlaying }
        if case .refused(let warn) = admission {
            return .refused(warn ? .guessesThrottled(perSecond: configuration.guessesPerSecond) : nil)
        }
        let verdict = round.judge(guess: value, by: player)
        // Out of range: a mistake of the guesser's, told to them alone, changing nothing.
        if case .outOfRange(let range) = verdict { return .outOfRange(.guessOutOfRange(value, range: range)) }
        if verdict.countsAsGuess { scoreboard.recordGuess(by: player) }
        if isJournaling {
            journal.guesses.append(GuessRecord(round: round.number, player: player, guess: value))
            if verdict.countsAsGuess { journal.scores.insert(id) }
        }
        let line = JudgedGuess(sequence: nextSequence(), round: round.number, judgement: Judgement(player: player, guess: value, verdict: verdict))
        fanOut.enqueue(.verdict(line))
        guard verdict == .correct else { return .judged(line, won: nil, scoreboard: nil) }
        let guesses = round.winningGuessCount ?? round.guesses(by: id)
        scoreboard.recordWin(by: player, guesses: guesses)
        let won = revealRound(winner: player, winningGuesses: guesses)
        topScores = scoreboard.top(configuration.scoreboardLimit)
        let board = ScoreboardUpdate(sequence: nextSequence(), entries: topScores, totalEntries: scoreboard.count)
        fanOut.enqueue(.scoreboard(board))
        return .judged(line, won: won, scoreboard: board)
    }

    mutating func chat(_ text: String, from id: UUID, at now: ContinuousClock.Instant) -> RequestOutcome<RelayedChat> {
        guard let member = roster[id] else { return .notPlaying }
        if text.trimmingWhitespace.isEmpty { return .ignored }
        if case .refused(let warn)? = seats.update(id, { $0.chatThrottle.admit(at: now) }) {
            return .refused(warn ? .chatThrottled(perSecond: configuration.chatLinesPerSecond) : nil)
        }
        do { try RoomProtocol.checkChat(text) } catch { return .refused(error) }
        return .done(relay(text, from: member.player))
    }

    /// The host's own chat line, relayed like a guest's.
    mutating func hostChat(_ text: String) -> RelayedChat {
        relay(text, from: host)
    }

    private mutating func relay(_ text: String, from player: PlayerRef) -> RelayedChat {
        let line = RelayedChat(sequence: nextSequence(), from: player, text: text)
        fanOut.enqueue(.chat(line))
        return line
    }

    // MARK: Rounds

    /// Ends the current round (revealing it if nobody won) and starts the next over `range`.
    mutating func startRound(range: GuessRange, secret: Int64, salt: Salt) throws(GameError) -> (ended: RoundWon?, started: RoundStarted) {
        let next = try Round(number: round.number + 1, range: range, secret: secret, salt: salt)
        let ended = round.isWon ? nil : revealRound(winner: nil, winningGuesses: nil)
        previousRound = FinishedRound(number: round.number, history: round.history, reveal: ended ?? reveal)
        round = next
        reveal = nil
        if isJournaling {
            journal.roundStarted = true
            journal.guesses = []
        }
        let started = RoundStarted(
            sequence: nextSequence(), round: next.number, range: range, commitment: next.commitment,
            hostChoseSecret: configuration.secretSource.isChosenByHost)
        fanOut.enqueue(.roundStarted(started))
        return (ended, started)
    }

    private mutating func revealRound(winner: PlayerRef?, winningGuesses: Int?) -> RoundWon {
        let won = RoundWon(
            sequence: nextSequence(), round: round.number, range: round.range, commitment: round.commitment, winner: winner,
            secret: round.secret, salt: round.salt, winningGuesses: winningGuesses, totalGuesses: round.countedGuesses,
            hostChoseSecret: configuration.secretSource.isChosenByHost)
        reveal = won
        fanOut.enqueue(.roundWon(won))
        return won
    }

    // MARK: Flushing

    /// Everything to send now; afterwards nothing is pending.
    /// The next tick lasts `interval`: sets how many lines it lists for the current number of
    /// players.
    mutating func takeFlush(nextInterval interval: Duration? = nil) -> Flush {
        var flush = Flush(batch: fanOut.take())
        if !away.isEmpty { flush.away = Set(away.keys) }
        if let interval {
            fanOut.maximumGuessLinesPerTick = configuration.listedLinesPerTick(players: roster.count, interval: interval)
        }
        // Replays come from what was broadcast before this tick: its batch goes to everyone.
        for (member, asked, after) in seats.takeReplays() {
            // What came right after `asked` is not kept (let go, or broadcast by a resumed game's
            // earlier life): the player gets a welcome. Otherwise its replay starts no earlier
            // than its own join.
            if asked >= recent.floor, let items = recent.after(after, newest: lastSequence) {
                flush.replays.append((member.peer, ReplayMessage(after: after, items: items)))
            } else {
                seats.welcomeAgain(member.player.id)
            }
        }
        if let batch = flush.batch { recent.append(contentsOf: batch.items) }
        flush.welcomes = seats.takeWelcomes().map { ($0.peer, $0.player) }
        if !flush.welcomes.isEmpty { flush.state = gameState() }
        return flush
    }

    /// The state a newcomer receives. Its scoreboard is the one as of its last item, this
    /// round's guesses included (not the top last broadcast, which a round's end sends): the
    /// guest counts every verdict after that item, as those who were there did.
    func gameState() -> GameState {
        let history = round.history.suffix(configuration.welcomeHistoryLimit)
        return GameState(
            round: round.number, range: round.range, commitment: round.commitment, history: Array(history),
            earlierJudgements: round.judgedCount - history.count, lastSequence: lastSequence,
            players: roster.some(configuration.welcomePlayerLimit), playerCount: roster.count,
            scoreboard: scoreboard.top(configuration.scoreboardLimit), reveal: reveal, hostChoseSecret: configuration.secretSource.isChosenByHost,
            seatHoldSeconds: configuration.seatHoldSeconds)
    }

    /// Every player, in join order.
    var players: [GamePlayer] {
        roster.members.values.sorted { $0.order < $1.order }.map(gamePlayer(of:))
    }

    private func gamePlayer(of member: PlayerRoster.Member) -> GamePlayer {
        GamePlayer(
            player: member.player, peer: member.peer, guessesThisRound: round.guesses(by: member.player.id),
            wins: scoreboard.entry(for: member.player.id)?.wins ?? 0, awaySince: away[member.player.id])
    }

    private mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }
}
