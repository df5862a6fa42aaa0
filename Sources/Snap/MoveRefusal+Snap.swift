import Rooms

/// The refusals of snap, beside the room's `watching` and `roundOver`. Codes are stable on the
/// wire; the names differ from the other games' so that a program importing every game module
/// can tell them apart.
extension MoveRefusal {
    /// `notYourTurn`: another player is to turn a card over.
    public static let notYourTurnToTurnOver = MoveRefusal(
        "notYourTurn", "It is not your turn to turn a card over: /table shows whose turn it is.")
    /// `waitingForOpponent`: the round waits for a second player before the deck is dealt.
    public static let deckWaitsForSecondPlayer = MoveRefusal(
        "waitingForOpponent", "The deck waits for a second player: moves open when someone joins.")
    /// `outOfCards`: the mover holds no cards any more and is out of the round.
    public static let outOfCards = MoveRefusal(
        "outOfCards", "You have no cards left, so you are out of this round: watch until the next one.")
    /// `alreadyCalledSnap`: the mover already called snap on the pair just taken.
    public static let alreadyCalledSnap = MoveRefusal(
        "alreadyCalledSnap", "You already called snap on that pair: wait for the next card.")
}
