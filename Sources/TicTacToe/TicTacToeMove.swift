/// What a player sends: a mark on a square.
///
/// On the wire a move is `{"place": {"square": 5}}`, the square numbered as in ``Square``. The
/// number is checked by the rules rather than by the decoder, so that a player who sends 10 is
/// told `MoveRefusal.noSuchSquare` instead of having the message dropped; a number that does
/// not fit an `Int`, or another key than `place`, fails to decode.
public enum TicTacToeMove: Sendable, Hashable, Codable {
    /// Put the mover's mark on the square numbered `square` (1–9).
    case place(square: Int)
}
