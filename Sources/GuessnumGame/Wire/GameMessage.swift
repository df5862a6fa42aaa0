import Multipeer

/// Facts of the game protocol that both sides share (the room's, names and chat, are
/// ``Rooms/RoomProtocol``'s).
public enum GameProtocol {
    /// The version carried in every type string and in ``WelcomeMessage/protocolVersion``.
    public static let version = 1
    /// The prefix of every type string of this version.
    public static let typePrefix = "guessnum.v1."
    /// The game, as the room layer names it: the id players of other games are told apart by.
    public static let kind = GameKind(id: JoinRequest.unnamedGame, title: "guess-the-number", messagePrefix: typePrefix)
}
