/// The one error type of the PAKE module: a ``code`` to switch on and a ``message`` for the
/// person at the keyboard.
public struct PAKEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The other side's share is not a valid group element, or it is the neutral element
        /// (a share made to cancel the exchange): the exchange must be abandoned.
        case invalidShare
        /// The other side's confirmation does not match: it does not hold the same password,
        /// or it saw another exchange (someone in the middle).
        case confirmationFailed
    }

    /// What kind of failure this is.
    public let code: Code
    /// One sentence that says what went wrong.
    public let message: String

    public var description: String { message }

    /// The other side's share is not valid.
    public static let invalidShare = PAKEError(
        code: .invalidShare, message: "The other side's password exchange is not valid (a malformed or neutral share); the connection was not trusted.")
    /// The other side's confirmation does not match.
    public static let confirmationFailed = PAKEError(
        code: .confirmationFailed,
        message: "The other side could not prove it knows the same password: either the password differs, or someone sits between the two sides.")
}
