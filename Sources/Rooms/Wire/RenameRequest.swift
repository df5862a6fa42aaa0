/// `guessnum.v1.rename` — a guest asks to be shown under another name (guest → host). The host
/// makes the name unique and tells everyone with a ``PlayerRenamed``.
public struct RenameRequest: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.rename"
    /// The name wanted: a name that passes ``Rooms/RoomProtocol/checkName(_:)`` (1 to 63 UTF-8 bytes,
    /// no control, invisible or formatting characters, not starting with "[").
    public var name: String

    /// Asks for `name`.
    public init(name: String) {
        self.name = name
    }
}
