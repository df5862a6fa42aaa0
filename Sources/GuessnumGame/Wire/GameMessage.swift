import Multipeer

/// A message of the guessnum game protocol.
///
/// Every message is a JSON object sent as a typed session message whose type string names
/// the protocol version, as in `guessnum.v1.guess`. A receiver that meets a type it does not
/// know logs it and ignores it, so newer programs may add messages without breaking older ones;
/// a change that older programs cannot ignore gets a new version (`guessnum.v2.…`).
public protocol GameMessage: SessionMessage {}

/// Facts of the game protocol that both sides share (the room's, names and chat, are
/// ``Rooms/RoomProtocol``'s).
public enum GameProtocol {
    /// The version carried in every type string and in ``WelcomeMessage/protocolVersion``.
    public static let version = 1
    /// The prefix of every type string of this version.
    public static let typePrefix = "guessnum.v1."
}
