/// What a room's host tells one guest or all of them, whatever the game. How each looks on the
/// wire is the game's ``RoomCodec``'s business.
public enum RoomHostMessage<Rules: GameRules>: Sendable {
    /// What a newcomer needs to play.
    case welcome(RoomWelcome<Rules>)
    /// The numbered items of one tick, to everyone.
    case batch(RoomBatch<Rules>)
    /// What a player back after a drop missed: the items numbered after `after`.
    case replay(after: UInt64, items: [RoomItem<Rules>])
    /// The game as one player now sees it.
    case view(RoomViewUpdate<Rules>)
    /// What a move told the mover alone; `sequence` is the number of the first item the move
    /// broadcast, if it broadcast any.
    case reply(Rules.Event, sequence: UInt64?)
    /// Why the rules refused the mover's move.
    case refused(MoveRefusal)
}
