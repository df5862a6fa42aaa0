/// What a player sends.
///
/// On the wire a move is `{"turn": {}}` or `{"snap": {}}`; any other key fails to decode.
public enum SnapMove: Sendable, Hashable, Codable {
    /// Turn the top card of the mover's face-down stack over onto their face-up pile: only on
    /// the mover's turn.
    case turn
    /// Call snap: at any time during play, by any player of the round who still holds cards.
    case snap
}
