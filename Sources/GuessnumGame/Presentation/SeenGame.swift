import Foundation
import Rooms

/// What one player has seen of a game of guess-the-number: the round, its guesses, the round
/// before, the scores, and an audit of the round that checks its reveal. A value with no I/O,
/// taken in in the host's order.
struct SeenGame: Sendable {
    /// How many judgements of the current round are kept (the oldest are dropped in batches).
    static let historyLimit = 1000

    /// The current round's number (0 before the welcome).
    private(set) var round = 0
    /// The current round's range.
    private(set) var range: GuessRange?
    /// The recent judgements of the current round, oldest first.
    private(set) var history: [Judgement] = []
    /// Counted guesses in the current round, by player.
    private(set) var guessesThisRound: [UUID: Int] = [:]
    /// The round before the current one; nil until a round starts after the welcome.
    private(set) var previousRound: FinishedRound?
    /// The current round's reveal, once it is over.
    private(set) var reveal: RoundWon?
    /// The host's last word on the scores, kept current with every verdict, win and rename since.
    var scores = Scoreboard()
    /// Round number → whether the host was honest in it.
    private(set) var fairnessChecks: [Int: FairnessCheck] = [:]
    private var audit: RoundAudit?
    /// Whether reveals are checked (a player's screen; the host knows the secret).
    private var checksReveals = false

    /// Takes in a welcome's view of the game (or the host's, `checkingReveals` none); returns the
    /// check of its reveal, if it has one.
    mutating func take(_ view: GuessView, checkingReveals: Bool) -> [FairnessCheck] {
        checksReveals = checkingReveals
        round = view.round
        range = view.range
        history = []
        guessesThisRound = [:]
        reveal = view.reveal
        scores = Scoreboard()
        for entry in view.scoreboard { scores.set(entry) }
        audit = RoundAudit(round: view.round, range: view.range, commitment: view.commitment)
        for judgement in view.history { record(judgement) }
        guard checksReveals, let reveal = view.reveal, reveal.round == view.round else { return [] }
        return [check(reveal)]
    }

    /// Takes in a verdict (the player's own, or another's from the broadcast).
    mutating func take(_ line: JudgedGuess) {
        if line.round == round { record(line.judgement) }
        if line.judgement.verdict.countsAsGuess { scores.recordGuess(by: line.player) }
    }

    mutating func take(_ started: RoundStarted) {
        if round > 0, started.round != round { previousRound = FinishedRound(number: round, history: history, reveal: reveal) }
        round = started.round
        range = started.range
        history = []
        guessesThisRound = [:]
        reveal = nil
        audit = RoundAudit(round: started.round, range: started.range, commitment: started.commitment)
    }

    /// Takes in a round's end; returns the check of its reveal (none for another round's).
    mutating func take(_ won: RoundWon) -> [FairnessCheck] {
        guard won.round == round else { return [] }
        reveal = won
        if let winner = won.winner { scores.recordWin(by: winner, guesses: won.winningGuesses ?? 0) }
        return checksReveals ? [check(won)] : []
    }

    mutating func take(_ update: ScoreboardUpdate) {
        for entry in update.entries { scores.set(entry) }
    }

    private mutating func record(_ judgement: Judgement) {
        history.append(judgement)
        if history.count >= 2 * Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        if judgement.verdict.countsAsGuess { guessesThisRound[judgement.player.id, default: 0] += 1 }
        audit?.observe(judgement)
    }

    private mutating func check(_ reveal: RoundWon) -> FairnessCheck {
        // Joined too late to see the commitment published at the start: the reveal is checked
        // against the commitment it names.
        let audit = self.audit.flatMap { $0.round == reveal.round ? $0 : nil }
            ?? RoundAudit(round: reveal.round, range: reveal.range, commitment: reveal.commitment)
        let checked = audit.check(reveal)
        let result = FairnessCheck(round: checked.round, problems: checked.problems, hostChoseSecret: reveal.hostChoseSecret == true)
        fairnessChecks[reveal.round] = result
        return result
    }
}
