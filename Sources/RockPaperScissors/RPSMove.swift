/// What a player sends during a throw.
///
/// On the wire a move is `{"commit": {"digest": "<64 hex digits>"}}` or
/// `{"reveal": {"hand": "rock", "salt": "<64 hex digits>"}}`. The digest and the salt travel as
/// text and the rules judge them, so a malformed one earns a refusal with a sentence rather than
/// a message the room cannot read. ``SealedHand`` makes both moves.
public enum RPSMove: Sendable, Hashable, Codable {
    /// Seals this throw's hand: a ``HandCommitment`` as 64 lowercase hex digits.
    case commit(digest: String)
    /// Opens the commitment once both players have committed: the hand and its ``HandSalt``.
    case reveal(hand: Hand, salt: String)
}
