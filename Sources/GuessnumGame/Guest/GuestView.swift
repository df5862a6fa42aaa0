import Foundation
import Multipeer

/// What a guest knows of the game: the round, its history, the players, the scores and its
/// findings about the host's honesty. Built from what the host sends; a value with no I/O.
public struct GuestView: Sendable {
    /// How many judgements of the current round are kept (the oldest are dropped in batches).
    public static let historyLimit = 1000

    /// Whether a welcome has arrived; until then broadcasts are ignored.
    public internal(set) var isWelcomed = false
    /// This guest, under the name the host gave it.
    public internal(set) var you: PlayerRef?
    /// The current round's number (0 before the welcome).
    public internal(set) var round = 0
    /// The current round's range.
    public internal(set) var range: GuessRange?
    /// The current round's commitment.
    public internal(set) var commitment: Commitment?
    /// The recent judgements of the current round, oldest first.
    public internal(set) var history: [Judgement] = []
    /// The round before the current one, as this guest saw it; nil until a round starts after
    /// the welcome.
    public internal(set) var previousRound: FinishedRound?
    /// The verdict on this guest's last guess.
    public internal(set) var lastVerdict: JudgedGuess?
    /// The current round's reveal, once it is over.
    public internal(set) var reveal: RoundWon?
    /// The scoreboard, best first: the host's last word on it, kept current with every verdict,
    /// win and rename since.
    public var scoreboard: [Scoreboard.Entry] { scores.ranked }
    /// The players this guest has heard of (all of them in a small game).
    public internal(set) var players: [UUID: PlayerRef] = [:]
    /// How many players there are.
    public internal(set) var playerCount = 0
    /// Round number → whether the host was honest in it.
    public internal(set) var fairnessChecks: [Int: FairnessCheck] = [:]
    /// Guess lines the host left out of busy broadcasts.
    public internal(set) var omittedGuesses = 0
    /// How many welcomes have arrived (the first, and fresh ones after a rejoin or a request).
    public internal(set) var welcomes = 0
    /// How many replays of missed items have arrived (after rejoins).
    public internal(set) var replays = 0
    /// How long the host keeps this guest's seat if the link drops, from the last welcome; nil
    /// when it keeps none.
    public internal(set) var seatHold: Duration?

    var scores = Scoreboard()
    /// This guest's own verdicts that arrived before broadcast items the host sent earlier;
    /// each is shown once those have been, so the screen follows the host's order.
    var heldOwn: [JudgedGuess] = []
    /// The sequence number of the last broadcast item taken in (or that the welcome included).
    public internal(set) var lastSequence: UInt64 = 0
    /// What a guest coming back after a drop says it has (``lastSequence``); nil before any
    /// welcome, when it has nothing to go on from.
    public var resumePoint: UInt64? { isWelcomed ? lastSequence : nil }
    var audit: RoundAudit?
    /// Sequence numbers of own verdicts already posted, so the broadcast copy is not posted again.
    var announced: Set<UInt64> = []
    /// Broadcasts that came after the link to the host dropped, before what was missed meanwhile
    /// (a replay or a fresh welcome): taken in after it, so that none carries the guest past
    /// the items it missed. Nil when not waiting for a catch-up.
    var heldBatches: [HistoryBatch]?
    /// The most broadcasts held while waiting for a catch-up; one more and they are taken in as
    /// they are (the items missed before them are then left out, as a fresh welcome would).
    static let heldBatchLimit = 256

    init() {}

    /// Takes in a welcome; returns what to post.
    mutating func apply(_ welcome: WelcomeMessage) -> [GuestGameEvent] {
        let game = welcome.game
        isWelcomed = true
        welcomes += 1
        seatHold = game.seatHoldSeconds.flatMap { $0 > 0 ? .seconds($0) : nil }
        you = welcome.you
        round = game.round
        range = game.range
        commitment = game.commitment
        history = game.history
        reveal = game.reveal
        scores = Scoreboard()
        for entry in game.scoreboard { scores.set(entry) }
        heldOwn = []
        players = Dictionary(game.players.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        players[welcome.you.id] = welcome.you
        playerCount = game.playerCount
        lastSequence = game.lastSequence
        announced = announced.filter { $0 > game.lastSequence }
        var audit = RoundAudit(round: game.round, range: game.range, commitment: game.commitment)
        for judgement in game.history { audit.observe(judgement) }
        self.audit = audit
        var events: [GuestGameEvent] = [.welcomed(welcome)]
        if let reveal = game.reveal, reveal.round == game.round { events.append(contentsOf: check(reveal)) }
        return events + releaseHeldBatches()
    }

    /// The link to the host dropped: broadcasts that come before what was missed (a replay or
    /// a fresh welcome) wait for it. Nothing to wait for before the first welcome.
    mutating func holdBatches() {
        if isWelcomed, heldBatches == nil { heldBatches = [] }
    }

    /// Takes in the broadcasts held since the link dropped (see ``holdBatches()``); returns what to post.
    mutating func releaseHeldBatches() -> [GuestGameEvent] {
        guard let held = heldBatches else { return [] }
        heldBatches = nil
        return held.flatMap { apply($0) }
    }

    /// Takes in this guest's own verdict, sent at once; returns what to post.
    mutating func applyOwn(_ line: JudgedGuess) -> [GuestGameEvent] {
        lastVerdict = line
        if isWelcomed, line.sequence <= lastSequence { return [] }  // the broadcast copy came first
        if line.round == round { audit?.observe(line.judgement) }
        // `lastSequence < .max`: a host that numbers up to the last UInt64 must not stop the guest.
        if isWelcomed, lastSequence < .max, line.sequence > lastSequence + 1 {
            // Earlier items (someone's winning guess, say) are still on their way: wait for them.
            heldOwn.append(line)
            return []
        }
        return announce(line)
    }

    /// Posts an own verdict now; its broadcast copy will not be posted again.
    private mutating func announce(_ line: JudgedGuess) -> [GuestGameEvent] {
        announced.insert(line.sequence)
        if announced.count > 4096 { announced = announced.filter { $0 > lastSequence } }
        if line.judgement.verdict.countsAsGuess { scores.recordGuess(by: line.player) }
        return [.item(.verdict(line))]
    }

    /// Posts the held own verdicts numbered below `sequence` (all of them when nil), in order.
    private mutating func release(before sequence: UInt64?) -> [GuestGameEvent] {
        let due = heldOwn.filter { sequence == nil || $0.sequence < sequence! }.sorted { $0.sequence < $1.sequence }
        guard !due.isEmpty else { return [] }
        heldOwn.removeAll { sequence == nil || $0.sequence < sequence! }
        return due.flatMap { announce($0) }
    }

    /// Takes in what was missed during a drop: posts that it was caught up, then each item
    /// not seen yet, as a batch would.
    mutating func apply(_ replay: ReplayMessage) -> [GuestGameEvent] {
        guard isWelcomed else { return [] }
        replays += 1
        let posts = take(HistoryBatch(items: replay.items))
        // Counted as the screen lists them: not score updates, nor the guest's own lines.
        let missed = posts.count { $0.isNews(to: you?.id) }
        return [.caughtUp(CaughtUp(missed: missed))] + posts + releaseHeldBatches()
    }

    /// Takes in a broadcast batch, or holds it while what was missed is awaited (see
    /// ``holdBatches()``); returns what to post.
    mutating func apply(_ batch: HistoryBatch) -> [GuestGameEvent] {
        guard isWelcomed else { return [] }
        if let held = heldBatches?.count {
            guard held < Self.heldBatchLimit else { return releaseHeldBatches() + take(batch) }
            heldBatches?.append(batch)
            return []
        }
        return take(batch)
    }

    /// Takes in the items of `batch` not seen yet; returns what to post.
    private mutating func take(_ batch: HistoryBatch) -> [GuestGameEvent] {
        var events: [GuestGameEvent] = []
        for item in batch.items {
            guard let sequence = item.sequence, sequence > lastSequence else { continue }
            events.append(contentsOf: release(before: sequence))
            heldOwn.removeAll { $0.sequence == sequence }  // its broadcast copy is posted instead
            lastSequence = sequence
            events.append(contentsOf: apply(item))
        }
        // A busy tick may have left an own verdict's copy out: then nothing more will come before it.
        // At the end of the numbers (a hostile host's) nothing can come before it either.
        events.append(contentsOf: release(before: batch.omittedGuesses > 0 || lastSequence >= .max - 1 ? nil : lastSequence + 2))
        // A big game lists only some joins and leaves, and then says how many players there are.
        if let count = batch.playerCount { playerCount = count }
        if batch.omittedGuesses > 0 {
            let (total, overflow) = omittedGuesses.addingReportingOverflow(batch.omittedGuesses)
            omittedGuesses = overflow ? .max : total  // a hostile host's count must not stop the guest
            events.append(.omitted(OmittedGuesses(count: batch.omittedGuesses)))
        }
        return events
    }

    /// Takes in one broadcast item; returns what to post: the item itself (unless it is an own
    /// verdict posted already, or unknown), then any fairness check it brings.
    private mutating func apply(_ item: HistoryItem) -> [GuestGameEvent] {
        switch item {
        case .verdict(let line):
            let alreadyPosted = announced.remove(line.sequence) != nil
            if line.round == round {
                record(line.judgement)
                audit?.observe(line.judgement)
            }
            if line.player.id == you?.id, !alreadyPosted { lastVerdict = line }
            if alreadyPosted { return [] }
            if line.judgement.verdict.countsAsGuess { scores.recordGuess(by: line.player) }
        case .chat:
            break
        case .joined(let joined):
            players[joined.player.id] = joined.player
            playerCount = joined.playerCount
        case .left(let left):
            players[left.player.id] = nil
            playerCount = left.playerCount
        case .away:
            break
        case .back(let back):
            players[back.player.id] = back.player
        case .renamed(let renamed):
            players[renamed.player.id] = renamed.player
            scores.rename(renamed.player)
            if renamed.player.id == you?.id { you = renamed.player }
        case .roundWon(let won):
            guard won.round == round else { break }
            reveal = won
            if let winner = won.winner { scores.recordWin(by: winner, guesses: won.winningGuesses ?? 0) }
            return [.item(item)] + check(won)
        case .roundStarted(let started):
            if round > 0, started.round != round { previousRound = FinishedRound(number: round, history: history, reveal: reveal) }
            round = started.round
            range = started.range
            commitment = started.commitment
            history = []
            reveal = nil
            audit = RoundAudit(round: started.round, range: started.range, commitment: started.commitment)
        case .scoreboard(let update):
            for entry in update.entries { scores.set(entry) }
        case .unknown:
            return []
        }
        return [.item(item)]
    }

    private mutating func record(_ judgement: Judgement) {
        history.append(judgement)
        if history.count >= 2 * Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
    }

    private mutating func check(_ reveal: RoundWon) -> [GuestGameEvent] {
        let audit: RoundAudit
        if let current = self.audit, current.round == reveal.round {
            audit = current
        } else {
            // Joined too late to see the commitment published at the start: check the reveal
            // against the commitment it names.
            audit = RoundAudit(round: reveal.round, range: reveal.range, commitment: reveal.commitment)
        }
        let checked = audit.check(reveal)
        let result = FairnessCheck(round: checked.round, problems: checked.problems, hostChoseSecret: reveal.hostChoseSecret == true)
        fairnessChecks[reveal.round] = result
        return [.fairness(result)]
    }
}
