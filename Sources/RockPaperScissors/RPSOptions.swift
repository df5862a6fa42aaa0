import ArgumentParser
import Rooms

/// What a host chooses for a game of rock-paper-scissors: `--best-of`, the throws a match is the
/// best of (the players throw together, in turns, so the host's turn time applies).
public struct RPSOptions: ParsableArguments, GameOptions {
    // `.unconditional`: a negative number is a value (refused with its sentence), not an option.
    /// How many throws a match is the best of (nil: ``RPSSettings``' default, 3).
    @Option(
        name: .customLong("best-of"), parsing: .unconditional,
        help: "How many throws a match is the best of, odd, from 1 to 9 (default: \(RPSSettings().bestOf)).")
    public var bestOf: Int?

    public init() {}

    public static var takesTurns: Bool { true }

    /// The rules of a match of ``bestOf`` throws.
    /// - Throws: ``RPSSettingsError`` unless it is odd and from 1 to 9.
    public func rules() throws(RPSSettingsError) -> RPSRules {
        RPSRules(settings: try bestOf.map(RPSSettings.init(bestOf:)) ?? RPSSettings())
    }
}
