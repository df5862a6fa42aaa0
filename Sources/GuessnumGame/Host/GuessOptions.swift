import ArgumentParser
import Rooms

/// What a host chooses for a game of guess-the-number: `--range`, the numbers secrets are drawn
/// from, and `--secret`, the first round's secret (for demos).
public struct GuessOptions: ParsableArguments, GameOptions {
    // `.unconditional`: "-50-50" is a value, not an option.
    /// The first round's range (nil: 1–100).
    @Option(
        parsing: .unconditional, help: "The numbers the secret is drawn from, such as 1-100 or -50-50 (default: 1-100).",
        transform: { try GuessRange(parsing: $0) })
    public var range: GuessRange?

    /// The first round's secret, instead of a random one (nil: random).
    @Option(parsing: .unconditional, help: "Use this secret for the first round instead of a random one (for demos).")
    public var secret: Int64?

    public init() {}

    /// The rules of a new game with its first round drawn: over the range given, the secret given
    /// for the first round.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when the secret lies outside the range.
    public func rules() throws(GameError) -> GuessRules {
        let range = range ?? .standard
        var rules = GuessRules(settings: GuessSettings(range: range), secretSource: secret.map { .fixed($0) } ?? .secureRandom)
        try rules.prepareRound(over: range)
        return rules
    }
}
