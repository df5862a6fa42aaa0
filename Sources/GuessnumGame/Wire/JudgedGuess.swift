/// `guessnum.v1.verdict` — a judged guess (host → guesser at once, and to everyone in the next
/// ``HistoryBatch``), read as "bob guessed 50: too high".
///
/// It is a ``Judgement`` with its place in the broadcast. On the wire the judgement's fields sit
/// beside `sequence` and `round` in one object, as docs/PROTOCOL.md sets out:
/// `{"sequence":…,"round":…,"player":…,"guess":…,"verdict":…}`.
public struct JudgedGuess: GameMessage, Hashable, CustomStringConvertible {
    public static let messageType = "guessnum.v1.verdict"
    /// The broadcast sequence number; the guesser's own copy and the broadcast one share it.
    public var sequence: UInt64
    /// The round the guess was judged in.
    public var round: Int
    /// Who guessed what, and the verdict.
    public var judgement: Judgement

    /// The line of `judgement`, broadcast as item `sequence` of round `round`.
    public init(sequence: UInt64, round: Int, judgement: Judgement) {
        self.sequence = sequence
        self.round = round
        self.judgement = judgement
    }

    /// The guesser.
    public var player: PlayerRef { judgement.player }
    /// The number guessed.
    public var guess: Int64 { judgement.guess }
    /// The answer.
    public var verdict: Verdict { judgement.verdict }

    /// "bob guessed 50: too high", safe to print.
    public var displayText: String { judgement.displayText }

    public var description: String { displayText }

    private enum CodingKeys: String, CodingKey { case sequence, round }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        round = try container.decode(Int.self, forKey: .round)
        judgement = try Judgement(from: decoder)  // the same object: player, guess, verdict
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(round, forKey: .round)
        try judgement.encode(to: encoder)  // into the same object, after `round`
    }
}
