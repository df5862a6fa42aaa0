import Rooms

/// The refusals of tic-tac-toe, beside the room's `watching` and `roundOver`. Codes are stable on
/// the wire.
extension MoveRefusal {
    /// `notYourTurn`: the other player is to move.
    public static let notYourTurn = MoveRefusal("notYourTurn", "It is not your turn: wait for your opponent's move.")
    /// `squareTaken`: the square already holds a mark.
    public static let squareTaken = MoveRefusal("squareTaken", "That square is taken: choose an empty one.")
    /// `noSuchSquare`: the number is outside 1–9.
    public static let noSuchSquare = MoveRefusal("noSuchSquare", "There is no such square: choose a number from 1 to 9.")
    /// `waitingForOpponent`: the round waits for a second player.
    public static let waitingForOpponent = MoveRefusal(
        "waitingForOpponent", "The board is waiting for a second player: moves open when someone joins.")
}
