import Rooms

/// The moves the rock-paper-scissors rules refuse, each with a stable code, beside the room's
/// `watching` (the mover is not one of the match's two players).
extension MoveRefusal {
    /// The mover has already committed to this throw.
    public static let alreadyCommitted = MoveRefusal("alreadyCommitted", "You have already chosen for this throw; reveal once both players have chosen.")
    /// The mover revealed before both players committed.
    public static let revealTooEarly = MoveRefusal("revealTooEarly", "Wait until both players have chosen before you reveal.")
    /// The mover has already revealed this throw.
    public static let alreadyRevealed = MoveRefusal("alreadyRevealed", "You have already revealed this throw; wait for the other player.")
    /// The hand and salt do not open the mover's commitment (a cheat attempt or a bug); nothing
    /// changes and the mover may send the right opening.
    public static let revealMismatch = MoveRefusal(
        "revealMismatch", "That hand and salt do not match your commitment, so the reveal was refused; send the hand and salt you committed to.")
    /// The digest is not 64 lowercase hex digits.
    public static let malformedCommitment = MoveRefusal("malformedCommitment", "A commitment is a SHA-256 digest written as 64 lowercase hex digits.")
    /// No match is being played (it is over, or waits for a second player).
    public static let matchOver = MoveRefusal("matchOver", "No match is being played now; wait for the next one.")
}
