import ArgumentParser
import Rooms

/// What a host chooses for a game of Snap: nothing of its own (players turn their cards over in
/// turn, so the host's turn time applies).
public struct SnapOptions: ParsableArguments, GameOptions {
    public init() {}

    public static var takesTurns: Bool { true }

    /// A new game's rules: a shuffled deck dealt when the round starts.
    public func rules() -> SnapRules { SnapRules() }
}
