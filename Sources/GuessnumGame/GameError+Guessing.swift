import Rooms
import SafeText

/// The sentences of guess-the-number's own errors, in one place: ranges, secrets and guesses.
extension GameError {
    static let rangeExample = "write it as LOW-HIGH, for example 1-100 or -50-50"

    /// A typed number beyond 64 bits: out of any round's range.
    public static func numberTooLarge(_ text: String, range: GuessRange?) -> GameError {
        let hint = range.map { "guess a number from \($0.lowerBound) to \($0.upperBound)" } ?? "guess a smaller number"
        return GameError(.numberTooLarge, "\(TerminalText.sanitized(text)) is out of range: \(hint).")
    }

    /// A guess outside the round's range, which the host answers to the guesser alone.
    public static func guessOutOfRange(_ guess: Int64, range: GuessRange) -> GameError {
        GameError(.guessOutOfRange, "\(guess) is out of range: guess a number from \(range.lowerBound) to \(range.upperBound).")
    }

    /// A range text that is empty.
    public static var emptyRange: GameError {
        GameError(.invalidRange, "The range is empty; \(rangeExample).")
    }

    /// A range text that does not have the shape `LOW-HIGH`.
    public static func unreadableRange(_ text: String) -> GameError {
        GameError(.invalidRange, "\(TerminalText.quoted(text)) is not a range; \(rangeExample).")
    }

    /// A range whose lower bound is above its upper bound.
    public static func reversedRange(_ lower: Int64, _ upper: Int64) -> GameError {
        GameError(.invalidRange, "The range \(lower)-\(upper) is reversed; write the smaller number first, as in \(upper)-\(lower).")
    }

    /// A range of one number.
    public static func singleNumberRange(_ number: Int64) -> GameError {
        GameError(.invalidRange, "The range \(number)-\(number) holds only one number, so there is nothing to guess; choose at least two numbers, as in 1-100.")
    }

    /// A range with a bound beyond ``GuessRange/maximumMagnitude``.
    public static func absurdRange(_ text: String) -> GameError {
        GameError(.invalidRange, "The range \(TerminalText.quoted(text)) reaches beyond ±\(GuessRange.maximumMagnitude); choose bounds between -\(GuessRange.maximumMagnitude) and \(GuessRange.maximumMagnitude).")
    }

    /// A fixed secret outside the range.
    public static func secretOutOfRange(_ secret: Int64, _ range: GuessRange) -> GameError {
        GameError(.secretOutOfRange, "The secret \(secret) is outside the range \(range); give a secret inside the range, or let the game draw one.")
    }

    /// Guesses faster than the host allows.
    public static func guessesThrottled(perSecond rate: Double) -> GameError {
        GameError(.throttled, "slow down: at most \(rateText(rate)) guesses a second; the extra guesses were not judged.")
    }
}
