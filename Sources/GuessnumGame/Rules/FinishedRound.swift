/// A round that is over, as `/history` shows it while the next round has no guesses of its own.
public struct FinishedRound: Sendable, Hashable {
    /// The round's number.
    public let number: Int
    /// Its recent judgements, oldest first.
    public let history: [Judgement]
    /// How it ended (its winner, if any, and secret), when known.
    public let reveal: RoundWon?

    /// A finished round numbered `number`, with its judgements and reveal.
    public init(number: Int, history: [Judgement], reveal: RoundWon?) {
        self.number = number
        self.history = history
        self.reveal = reveal
    }
}
