/// One judged guess: who guessed what, and the verdict.
public struct Judgement: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The guesser.
    public let player: PlayerRef
    /// The number guessed.
    public let guess: Int64
    /// The game master's answer.
    public let verdict: Verdict

    /// Creates a judgement.
    public init(player: PlayerRef, guess: Int64, verdict: Verdict) {
        self.player = player
        self.guess = guess
        self.verdict = verdict
    }

    /// "bob guessed 50: too high", safe to print.
    public var displayText: String { "\(player.displayText) guessed \(guess): \(verdict)" }

    public var description: String { displayText }
}
