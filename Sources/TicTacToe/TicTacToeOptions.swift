import ArgumentParser
import Rooms

/// What a host chooses for a game of tic-tac-toe: nothing of its own (two players take turns,
/// so the host's turn time applies).
public struct TicTacToeOptions: ParsableArguments, GameOptions {
    public init() {}

    public static var takesTurns: Bool { true }

    /// A new game's rules.
    public func rules() -> TicTacToeRules { TicTacToeRules() }
}
