/// What the host chooses for tic-tac-toe: nothing yet, the board is always 3×3.
///
/// On the wire the settings are `{}`; a later version may add fields with defaults.
public struct TicTacToeSettings: Sendable, Hashable, Codable {
    /// The only settings there are.
    public init() {}
}
