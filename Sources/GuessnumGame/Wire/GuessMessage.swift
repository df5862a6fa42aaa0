/// `guessnum.v1.guess` — a guest guesses a number (guest → host).
public struct GuessMessage: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.guess"
    /// The number guessed.
    public var guess: Int64

    /// Guesses `guess`.
    public init(guess: Int64) {
        self.guess = guess
    }
}
