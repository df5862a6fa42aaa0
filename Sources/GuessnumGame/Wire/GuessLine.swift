/// `guessnum.v1.verdict` — a judged guess (host → guesser at once, and to everyone in the next
/// ``HistoryBatch``), read as "bob guessed 50: too high".
public struct GuessLine: GameMessage, Hashable, CustomStringConvertible {
    public static let messageType = "guessnum.v1.verdict"
    /// The broadcast sequence number; the guesser's own copy and the broadcast one share it.
    public var sequence: UInt64
    /// The round the guess was judged in.
    public var round: Int
    /// The guesser.
    public var player: PlayerRef
    /// The number guessed.
    public var guess: Int64
    /// The answer.
    public var verdict: Verdict

    /// The line of `judgement`, broadcast as item `sequence` of round `round`.
    public init(sequence: UInt64, round: Int, judgement: Judgement) {
        self.sequence = sequence
        self.round = round
        self.player = judgement.player
        self.guess = judgement.guess
        self.verdict = judgement.verdict
    }

    /// The guess without its place in the broadcast.
    public var judgement: Judgement { Judgement(player: player, guess: guess, verdict: verdict) }

    /// "bob guessed 50: too high", safe to print.
    public var displayText: String { judgement.displayText }

    public var description: String { displayText }
}
