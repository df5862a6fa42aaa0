import Foundation
import Rooms

/// Guess-the-number's rules, as a value that a room runs (``Rooms/RoomHost``): the host's
/// secret in a range, committed to when the round starts; every guess judged too low, too high
/// or correct, at once to the guesser and to everyone with the next broadcast; the first to
/// find it wins the round, whose secret is then revealed with its salt so that every player can
/// check every verdict. A scoreboard of wins, guesses and best rounds is kept across rounds.
///
/// Its wire is the one guess-the-number always had (``GuessCodec``), so a player of an earlier
/// release plays a room of these rules. A store keeps it as every room is kept, a snapshot
/// written when a round starts or ends and each tick's guesses appended in between
/// (``GuessJournalEntry``): a round of thousands of guesses is not written again every tick.
public struct GuessRules: GameRules {
    public typealias Settings = GuessSettings
    public typealias Move = Int64
    public typealias Event = GuessEvent
    public typealias View = GuessView
    public typealias Codec = GuessCodec
    public typealias JournalEntry = GuessJournalEntry

    public static let kind = GameProtocol.kind

    public private(set) var settings: GuessSettings
    /// Where secrets come from.
    public let secretSource: SecretSource
    /// The current round, secret included; nil before the first.
    public internal(set) var round: Round?
    /// Wins, guesses and best rounds across rounds, by identity.
    public internal(set) var scoreboard = Scoreboard()
    /// The reveal of the current round, once it is over.
    public internal(set) var reveal: RoundWon?
    /// The round before the current one, with its judgements.
    public internal(set) var previousRound: FinishedRound?
    /// The round the host prepared for the next start (``prepareRound(over:)``).
    var prepared: Round?

    /// A game over `settings`' range whose secrets come from the system's secure random source.
    public init(settings: GuessSettings) {
        self.init(settings: settings, secretSource: .secureRandom)
    }

    /// A game over `settings`' range whose secrets come from `secretSource`.
    public init(settings: GuessSettings, secretSource: SecretSource) {
        self.settings = settings
        self.secretSource = secretSource
    }

    /// The game of `round` and `scoreboard`, read back from a store of an earlier release (its
    /// round judged again guess by guess: same secret, salt and commitment), with secrets from
    /// `secretSource` for the rounds after it; a won round's reveal is numbered `revealSequence`.
    public init(settings: GuessSettings, secretSource: SecretSource, resuming round: Round, scoreboard: Scoreboard, revealSequence: UInt64) {
        self.init(settings: settings, secretSource: secretSource)
        self.round = round
        self.scoreboard = scoreboard
        if let winner = round.winner {
            reveal = revealed(round, winner: winner, winningGuesses: round.winningGuessCount)
            reveal?.sequence = revealSequence
        }
    }

    /// The round being played, or before the first the one prepared for it.
    public var currentRound: Round? { round ?? prepared }

    /// Prepares the next round over `range` (the host's `/new RANGE`): its secret is drawn now, so
    /// that a source that cannot give one in `range` is told to the host before anything changes.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange``.
    public mutating func prepareRound(over range: GuessRange) throws(GameError) {
        try prepareRound(over: range, secret: try secretSource.secret(in: range), salt: .random())
    }

    /// Prepares the next round over `range` with `secret`, hidden by `salt`.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange``.
    mutating func prepareRound(over range: GuessRange, secret: Int64, salt: Salt) throws(GameError) {
        let number = (round?.number ?? 0) + 1
        prepared = try Round(number: number, range: range, secret: secret, salt: salt, historyLimit: settings.historyLimit)
        settings.range = range
    }

    // MARK: GameRules

    public mutating func startRound(_ number: Int, players: [PlayerRef]) -> [GuessEvent] {
        let next = prepared.flatMap { $0.number == number ? $0 : nil } ?? draw(number)
        prepared = nil
        var events: [GuessEvent] = []
        if let round, !round.isWon { events.append(.roundWon(revealed(round, winner: nil, winningGuesses: nil))) }
        if let round { previousRound = FinishedRound(number: round.number, history: round.history, reveal: reveal ?? events.first.flatMap(\.reveal)) }
        round = next
        reveal = nil
        events.append(.roundStarted(RoundStarted(
            sequence: 0, round: next.number, range: next.range, commitment: next.commitment, hostChoseSecret: secretSource.isChosenByHost)))
        return events
    }

    /// Round `number` over the settings' range. A source that cannot give a secret in it (a
    /// fixed secret the range no longer holds) yields to a secure draw rather than stop the game.
    private func draw(_ number: Int) -> Round {
        let range = settings.range
        let secret = (try? secretSource.secret(in: range)) ?? Int64.random(in: range.lowerBound...range.upperBound)
        // The secret lies in the range, so this cannot fail.
        return try! Round(number: number, range: range, secret: secret, historyLimit: settings.historyLimit)
    }

    public mutating func playerJoined(_ player: PlayerRef) -> [GuessEvent] { [] }

    public mutating func playerLeft(_ player: PlayerRef) -> [GuessEvent] { [] }

    public mutating func playerRenamed(_ player: PlayerRef) -> [GuessEvent] {
        scoreboard.rename(player)
        return []
    }

    public mutating func apply(_ guess: Int64, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<GuessEvent> {
        // Judged in place: a copy of the round would copy its history and its guess counts.
        guard let verdict = round?.judge(guess: guess, by: player), let round else { throw .roundOver }
        if case .outOfRange(let range) = verdict {
            // The guesser's mistake, told to them alone, changing nothing.
            let error = GameError.guessOutOfRange(guess, range: range)
            throw MoveRefusal(error.code.rawValue, error.message)
        }
        if verdict.countsAsGuess { scoreboard.recordGuess(by: player) }
        let line = GuessEvent.verdict(JudgedGuess(sequence: 0, round: round.number, judgement: Judgement(player: player, guess: guess, verdict: verdict)))
        var broadcast = [line]
        if verdict == .correct {
            let guesses = round.winningGuessCount ?? round.guesses(by: player.id)
            scoreboard.recordWin(by: player, guesses: guesses)
            let won = revealed(round, winner: player, winningGuesses: guesses)
            reveal = won
            broadcast.append(.roundWon(won))
            broadcast.append(.scoreboard(ScoreboardUpdate(sequence: 0, entries: scoreboard.top(settings.scoreboardLimit), totalEntries: scoreboard.count)))
        }
        return MoveOutcome(reply: line, broadcast: broadcast)
    }

    func revealed(_ round: Round, winner: PlayerRef?, winningGuesses: Int?) -> RoundWon {
        RoundWon(
            sequence: 0, round: round.number, range: round.range, commitment: round.commitment, winner: winner, secret: round.secret,
            salt: round.salt, winningGuesses: winningGuesses, totalGuesses: round.countedGuesses, hostChoseSecret: secretSource.isChosenByHost)
    }

    public func view(for player: PlayerRef?) -> GuessView {
        guard let round else {
            return GuessView(
                round: 0, range: settings.range, commitment: Commitment(secret: 0, salt: Salt(bytes: Array(repeating: 0, count: 32))!),
                history: [], earlierJudgements: 0, reveal: nil, hostChoseSecret: secretSource.isChosenByHost, scoreboard: [])
        }
        let history = round.history.suffix(settings.welcomeHistoryLimit)
        return GuessView(
            round: round.number, range: round.range, commitment: round.commitment, history: Array(history),
            earlierJudgements: round.judgedCount - history.count, reveal: reveal, hostChoseSecret: secretSource.isChosenByHost,
            scoreboard: scoreboard.top(settings.scoreboardLimit))
    }

    public mutating func numbered(_ event: GuessEvent, as sequence: UInt64) {
        if case .roundWon(let won) = event, won.round == reveal?.round { reveal?.sequence = sequence }
    }

    /// `/new RANGE`: the next round over `RANGE` (`1-500`), its secret drawn now.
    /// - Throws: ``Rooms/GameError/Code/invalidRange``, ``Rooms/GameError/Code/secretOutOfRange``.
    public mutating func prepareRound(asked argument: String) throws(GameError) {
        try prepareRound(over: try GuessRange(parsing: argument))
    }

    public var announcedRange: ClosedRange<Int64>? {
        let range = currentRound?.range ?? settings.range
        return range.lowerBound...range.upperBound
    }

    public var roundResult: RoundResult? {
        guard let winner = round?.winner else { return nil }
        return RoundResult(winners: [winner])
    }

    public static func movesThrottled(perSecond rate: Double) -> GameError { .guessesThrottled(perSecond: rate) }

    public static func isCommentary(_ event: GuessEvent) -> Bool {
        if case .verdict = event { true } else { false }
    }

    public static var broadcastsOwnScores: Bool { true }
    public static var everyoneSeesTheSame: Bool { true }

    /// A scoreboard update only refreshes the scores: not counted among what a player missed.
    public static func isNews(_ event: GuessEvent) -> Bool {
        if case .scoreboard = event { false } else { true }
    }
}

/// What a guess-the-number host chooses: the range, and how much its welcomes and scoreboards carry.
public struct GuessSettings: Sendable, Hashable, Codable {
    /// The range of the next round.
    public var range: GuessRange
    /// The most judgements of the current round a welcome carries (200).
    public var welcomeHistoryLimit = 200
    /// The most scoreboard entries a welcome or a scoreboard update carries (20).
    public var scoreboardLimit = 20
    /// How many recent judgements a round keeps (``Round/defaultHistoryLimit``).
    public var historyLimit = Round.defaultHistoryLimit

    /// Rounds over `range`.
    public init(range: GuessRange = .standard) {
        self.range = range
    }
}

extension GuessEvent {
    /// The reveal this event carries, if it is one.
    var reveal: RoundWon? {
        if case .roundWon(let won) = self { won } else { nil }
    }
}
