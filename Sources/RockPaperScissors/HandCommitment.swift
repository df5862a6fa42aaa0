import Crypto

/// A player's sealed hand: sent before either hand of a throw is shown, so that nobody can
/// answer the other's hand.
///
/// A commitment is the SHA-256 digest of exactly 33 bytes:
///
/// | bytes | content |
/// | --- | --- |
/// | 0–31 | the throw's ``HandSalt`` |
/// | 32 | the hand's ``Hand/committedByte``: `r` (0x72), `p` (0x70) or `s` (0x73) |
///
/// The opening is the hand and the salt; ``isOpened(by:salt:)`` recomputes the digest. The salt
/// keeps the hand hidden (three hands alone would be easy to try), the digest binds the player to
/// it. On the wire a commitment is 64 lowercase hex digits.
public struct HandCommitment: HexString, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The digest as 64 lowercase hex digits.
    public let rawValue: String

    init(validatedText: String) {
        rawValue = validatedText
    }

    /// The commitment to `hand` hidden by `salt`.
    public init(hand: Hand, salt: HandSalt) {
        self.init(bytes: Array(SHA256.hash(data: Self.sealedBytes(hand: hand, salt: salt))))
    }

    /// Whether `hand` and `salt` are what was committed to.
    public func isOpened(by hand: Hand, salt: HandSalt) -> Bool {
        HandCommitment(hand: hand, salt: salt) == self
    }

    /// The 33 bytes that are hashed: the salt, then the hand's byte.
    public static func sealedBytes(hand: Hand, salt: HandSalt) -> [UInt8] {
        salt.bytes + [hand.committedByte]
    }

    public var description: String { rawValue }
}
