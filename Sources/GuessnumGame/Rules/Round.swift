import Foundation

/// One round of the game, as the host sees it: the range, the secret and its commitment, every
/// player's guesses, the history of verdicts and who won.
///
/// A round is a value with no I/O: ``judge(guess:by:)`` decides and records, and nothing else
/// changes it. The secret lives here and nowhere else until the round is revealed.
public struct Round: Sendable, Codable {
    /// How many recent judgements a round keeps by default.
    public static let defaultHistoryLimit = 1000

    /// The round's number, counting from 1.
    public let number: Int
    /// The numbers the secret was drawn from.
    public let range: GuessRange
    /// The secret. Never send it before the round ends.
    public let secret: Int64
    /// The salt that hides the secret in ``commitment``.
    public let salt: Salt
    /// What the host publishes at the start: SHA-256 of salt and secret.
    public let commitment: Commitment

    /// Who guessed the secret, once someone has.
    public private(set) var winner: PlayerRef?
    /// How many counted guesses the winner needed, once someone has won.
    public private(set) var winningGuessCount: Int?
    /// The most recent judgements, oldest first: at least the last ``historyLimit`` when there
    /// were that many (the oldest are dropped in batches, so up to twice as many are kept).
    public private(set) var history: [Judgement] = []
    /// Every judgement of the round, including those dropped from ``history``.
    public private(set) var judgedCount = 0
    /// Guesses that counted (inside the range, before the win), by all players.
    public private(set) var countedGuesses = 0
    /// The number of recent judgements kept.
    public let historyLimit: Int

    private var guessesByPlayer: [UUID: Int] = [:]

    /// Starts round `number` over `range` with `secret`, hidden by `salt`.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when `range` does not hold `secret`.
    public init(number: Int, range: GuessRange, secret: Int64, salt: Salt = .random(), historyLimit: Int = Round.defaultHistoryLimit) throws(GameError) {
        guard range.contains(secret) else { throw .secretOutOfRange(secret, range) }
        self.number = number
        self.range = range
        self.secret = secret
        self.salt = salt
        self.commitment = Commitment(secret: secret, salt: salt)
        self.historyLimit = max(1, historyLimit)
    }

    /// Whether someone has found the secret.
    public var isWon: Bool { winner != nil }

    /// How many counted guesses `player` made this round.
    public func guesses(by player: UUID) -> Int {
        guessesByPlayer[player, default: 0]
    }

    /// How many judgements were dropped from the front of ``history``.
    public var droppedJudgements: Int { judgedCount - history.count }

    /// Judges `guess` by `player`, counts it and records it in the history.
    ///
    /// After a win every guess is ``Verdict/roundOver``; a guess outside the range is
    /// ``Verdict/outOfRange(_:)``. Neither counts as a guess, and one out of range is not
    /// recorded either: it is the guesser's mistake, which the host tells them alone.
    public mutating func judge(guess: Int64, by player: PlayerRef) -> Verdict {
        let verdict: Verdict
        if isWon {
            verdict = .roundOver
        } else if !range.contains(guess) {
            // The guesser's alone: not kept in the history that others read.
            return .outOfRange(range)
        } else {
            guessesByPlayer[player.id, default: 0] += 1
            countedGuesses += 1
            if guess < secret {
                verdict = .tooLow
            } else if guess > secret {
                verdict = .tooHigh
            } else {
                verdict = .correct
                winner = player
                winningGuessCount = guessesByPlayer[player.id]
            }
        }
        record(Judgement(player: player, guess: guess, verdict: verdict))
        return verdict
    }

    private mutating func record(_ judgement: Judgement) {
        judgedCount += 1
        history.append(judgement)
        if history.count >= 2 * historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    // MARK: Kept on disk

    private enum CodingKeys: String, CodingKey {
        case number, range, secret, salt, winner, winningGuessCount, history, judgedCount, countedGuesses, historyLimit, guessesByPlayer
    }

    /// A round read back from a store: every count as it was; the commitment made again from the
    /// secret and salt, so that it always matches them.
    /// - Throws: `DecodingError` when the secret is not in the range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (range, secret) = (try container.decode(GuessRange.self, forKey: .range), try container.decode(Int64.self, forKey: .secret))
        guard range.contains(secret) else {
            throw DecodingError.dataCorruptedError(forKey: .secret, in: container, debugDescription: "the secret is not in the round's range")
        }
        try self.init(
            number: container.decode(Int.self, forKey: .number), range: range, secret: secret, salt: container.decode(Salt.self, forKey: .salt),
            historyLimit: container.decode(Int.self, forKey: .historyLimit))
        winner = try container.decodeIfPresent(PlayerRef.self, forKey: .winner)
        winningGuessCount = try container.decodeIfPresent(Int.self, forKey: .winningGuessCount)
        history = try container.decode([Judgement].self, forKey: .history)
        judgedCount = try container.decode(Int.self, forKey: .judgedCount)
        countedGuesses = try container.decode(Int.self, forKey: .countedGuesses)
        guessesByPlayer = try container.decode([UUID: Int].self, forKey: .guessesByPlayer)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(range, forKey: .range)
        try container.encode(secret, forKey: .secret)
        try container.encode(salt, forKey: .salt)
        try container.encodeIfPresent(winner, forKey: .winner)
        try container.encodeIfPresent(winningGuessCount, forKey: .winningGuessCount)
        try container.encode(history, forKey: .history)
        try container.encode(judgedCount, forKey: .judgedCount)
        try container.encode(countedGuesses, forKey: .countedGuesses)
        try container.encode(historyLimit, forKey: .historyLimit)
        try container.encode(guessesByPlayer, forKey: .guessesByPlayer)
    }
}
