/// `guessnum.v1.rename` — a guest asks to be shown under another name (guest → host). The host
/// makes the name unique and tells everyone with a ``PlayerRenamed``.
public struct RenameRequest: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.rename"
    /// The name wanted: 1 to 63 UTF-8 bytes without control characters.
    public var name: String

    /// Asks for `name`.
    public init(name: String) {
        self.name = name
    }
}
