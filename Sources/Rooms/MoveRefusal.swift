/// Why the rules refused a move: told to the mover alone, who may try again.
///
/// Like every error of the product it has a ``code`` to switch on, stable on the wire, and a
/// ``message``: one sentence for the person at the keyboard that says what went wrong and, where
/// there is one, what to do instead.
public struct MoveRefusal: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of refusal: a short camel-case word that travels on the wire (`notYourTurn`).
    public let code: String
    /// One sentence for the player.
    public let message: String

    /// A refusal of kind `code`, told as `message`.
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
