/// `guessnum.v1.chat` — a guest says something to everyone (guest → host). The host relays
/// it to all players as a ``RelayedChat``.
public struct ChatMessage: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.chat"
    /// What was said, at most ``Rooms/RoomProtocol/maximumChatLength`` characters and
    /// ``Rooms/RoomProtocol/maximumChatBytes`` UTF-8 bytes.
    public var text: String

    /// Says `text`.
    public init(text: String) {
        self.text = text
    }
}
