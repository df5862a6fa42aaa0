import Multipeer

/// The rules of the room protocol that both sides share, whatever the game: player names and
/// chat lines.
public enum RoomProtocol {
    /// The reason a removed player is given when their link is closed.
    public static let removalReason = "the host removed you from the game"
    /// The reason every player is given when the host ends the game.
    public static let endReason = "the host ended the game"
    /// The most characters (grapheme clusters, what a person counts) a chat line may have.
    public static let maximumChatLength = 500
    /// The most UTF-8 bytes a chat line may have. Characters alone do not bound a line's size:
    /// 500 characters with stacked combining marks make a line of ~60 KB; this does.
    public static let maximumChatBytes = 2_000

    /// What starts every chat line on screen ("[chat] bob: hi", "[host] alice: hi"), and so may
    /// not start a player's name: a name such as "[host] alice: stop" would make a line about
    /// the player ("[host] alice: stop joined") read as the host's chat.
    public static let chatLineMark: Character = "["

    /// Checks a player's name: the session's rules (1 to 63 bytes, no control, invisible or
    /// formatting characters, see `PeerID`) and not starting with ``chatLineMark``.
    /// The guest checks before asking; the host enforces, at joining and renaming.
    /// - Throws: ``GameError/Code/invalidName``, with a sentence that says what to change.
    public static func checkName(_ name: String) throws(GameError) {
        do { try PeerID.validate(displayName: name) } catch { throw .invalidName(error) }
        if name.first == chatLineMark { throw .nameLooksLikeChat(name) }
    }
}
