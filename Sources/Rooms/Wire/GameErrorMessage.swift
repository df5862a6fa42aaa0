/// `guessnum.v1.error` — the host tells one guest what went wrong (host → guest), such as
/// "slow down: at most 20 guesses a second".
public struct GameErrorMessage: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.error"
    /// A ``Rooms/GameError/Code`` raw value; a code the guest does not know reads as
    /// ``Rooms/GameError/Code/other``.
    public var code: String
    /// The sentence to show.
    public var message: String

    /// The message that tells a guest of `error`.
    public init(_ error: GameError) {
        code = error.code.rawValue
        message = error.message
    }

    /// The error as this program knows it.
    public var error: GameError { .received(code: code, message: message) }
}
