import Rooms

/// What one person in the room sees of the game. Nothing on a tic-tac-toe board is secret, so
/// every view of a moment is the same but for ``role``.
///
/// On the wire: `{"round": 2, "board": "X.O.X....", "x": {…}, "o": {…},
/// "phase": {"playing": {"next": "O"}}, "role": "watching"}`; `x` and `o` are left out while no
/// board is in play.
public struct TicTacToeView: Sendable, Hashable, Codable {
    /// The round's number; 0 before the first.
    public var round: Int
    /// The marks on the board.
    public var board: Board
    /// Who plays X this round, if a board is in play.
    public var x: PlayerRef?
    /// Who plays O this round, if a board is in play.
    public var o: PlayerRef?
    /// Where the round stands.
    public var phase: Phase
    /// What the viewer does this round.
    public var role: Role

    /// Where a round stands.
    ///
    /// On the wire: `{"waiting": {}}`, `{"playing": {"next": "X"}}`,
    /// `{"won": {"mark": "O", "line": [3, 5, 7]}}`, `{"drawn": {}}`, `{"forfeited": {"winner": "X"}}`.
    public enum Phase: Sendable, Hashable, Codable {
        /// No board is in play: before the first round, or a round waiting for a second player.
        case waiting
        /// The round goes on and `next` is to move.
        case playing(next: Mark)
        /// `mark` filled `line`.
        case won(mark: Mark, line: [Square])
        /// A full board and no line.
        case drawn
        /// The other side gave up their seat, so `winner` won.
        case forfeited(winner: Mark)
    }

    /// What someone does in a round. On the wire `"X"`, `"O"` or `"watching"`.
    public enum Role: String, Sendable, Hashable, Codable {
        /// Plays X.
        case x = "X"
        /// Plays O.
        case o = "O"
        /// Is not on this round's board.
        case watching
    }

    /// The player holding `mark` this round.
    public func player(_ mark: Mark) -> PlayerRef? { mark == .x ? x : o }

    /// Whose turn it is, or nil when nobody is to move.
    public var turn: PlayerRef? {
        guard case .playing(let next) = phase else { return nil }
        return player(next)
    }

    /// Whether the viewer is the one to move.
    public var isMyTurn: Bool {
        guard case .playing(let next) = phase else { return false }
        return role.rawValue == next.rawValue
    }
}
