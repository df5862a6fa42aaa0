/// What the game master answers to a guess.
///
/// On the wire a verdict is `{"kind": "tooLow"}`, `{"kind": "tooHigh"}`, `{"kind": "correct"}`,
/// `{"kind": "roundOver"}` or `{"kind": "outOfRange", "range": {"lower": 1, "upper": 100}}`.
public enum Verdict: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The guess is below the secret: the secret is greater.
    case tooLow
    /// The guess is above the secret: the secret is smaller.
    case tooHigh
    /// The guess is the secret; the round is won.
    case correct
    /// The guess lies outside the round's range, which is given.
    case outOfRange(GuessRange)
    /// The round was already won when the guess arrived.
    case roundOver

    /// Whether the verdict counts as a guess in the scores: only guesses inside the range that
    /// arrived while the round was open do.
    public var countsAsGuess: Bool {
        switch self {
        case .tooLow, .tooHigh, .correct: true
        case .outOfRange, .roundOver: false
        }
    }

    /// "too low", "too high", "correct", "out of range 1–100", "round already won".
    public var description: String {
        switch self {
        case .tooLow: "too low"
        case .tooHigh: "too high"
        case .correct: "correct"
        case .outOfRange(let range): "out of range \(range)"
        case .roundOver: "round already won"
        }
    }

    /// A longer sentence for the guesser: "too low: the secret is greater".
    public var hint: String {
        switch self {
        case .tooLow: "too low: the secret is greater"
        case .tooHigh: "too high: the secret is smaller"
        case .correct: "correct: you found the secret"
        case .outOfRange(let range): "out of range \(range): guess a number from \(range.lowerBound) to \(range.upperBound)"
        case .roundOver: "round already won: wait for the next round"
        }
    }

    private enum Kind: String, Codable { case tooLow, tooHigh, correct, outOfRange, roundOver }
    private enum CodingKeys: String, CodingKey { case kind, range }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .tooLow: self = .tooLow
        case .tooHigh: self = .tooHigh
        case .correct: self = .correct
        case .roundOver: self = .roundOver
        case .outOfRange: self = .outOfRange(try container.decode(GuessRange.self, forKey: .range))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .tooLow: try container.encode(Kind.tooLow, forKey: .kind)
        case .tooHigh: try container.encode(Kind.tooHigh, forKey: .kind)
        case .correct: try container.encode(Kind.correct, forKey: .kind)
        case .roundOver: try container.encode(Kind.roundOver, forKey: .kind)
        case .outOfRange(let range):
            try container.encode(Kind.outOfRange, forKey: .kind)
            try container.encode(range, forKey: .range)
        }
    }
}
