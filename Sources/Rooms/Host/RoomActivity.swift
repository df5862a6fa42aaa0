/// What the host's own screen is told of its room (``RoomHost/activity``), in order.
public enum RoomActivity<Rules: GameRules>: Sendable {
    /// Something numbered happened in the room or the game, as it was broadcast.
    case item(RoomItem<Rules>)
    /// Guests were turned away for the password (the first of a minute from a network at once,
    /// the rest counted and told when the minute ends).
    case passwordRefusals(PasswordRefusals)
}
