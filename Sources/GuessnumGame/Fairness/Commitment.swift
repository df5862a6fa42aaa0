import Crypto
import Multipeer

/// The host's promise, published when a round starts, that it will not change the secret.
///
/// A commitment is the SHA-256 digest of exactly 40 bytes:
///
/// | bytes | content |
/// | --- | --- |
/// | 0–31 | the round's ``Salt`` |
/// | 32–39 | the secret, as a two's-complement 64-bit big-endian integer |
///
/// When the round ends the host reveals the salt and the secret; anyone can recompute the
/// digest with ``verify(secret:salt:)``. The salt keeps the secret hidden until then, and the
/// digest binds the host to it. On the wire a commitment is 64 lowercase hex digits.
public struct Commitment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number of bytes in a digest.
    public static let byteCount = 32

    /// The SHA-256 digest, ``byteCount`` bytes.
    public let digest: [UInt8]

    /// The commitment to `secret` hidden by `salt`.
    public init(secret: Int64, salt: Salt) {
        digest = Array(SHA256.hash(data: Self.committedBytes(secret: secret, salt: salt)))
    }

    /// A commitment from its 64 hex digits; nil for anything else.
    public init?(hex: String) {
        guard let digest = Hex.decode(hex), digest.count == Self.byteCount else { return nil }
        self.digest = digest
    }

    /// Whether `secret` and `salt` are what was committed to.
    public func verify(secret: Int64, salt: Salt) -> Bool {
        Commitment(secret: secret, salt: salt) == self
    }

    /// The 40 bytes that are hashed: the salt, then the secret as big-endian Int64.
    public static func committedBytes(secret: Int64, salt: Salt) -> [UInt8] {
        var bytes = salt.bytes
        withUnsafeBytes(of: secret.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The digest as 64 lowercase hex digits.
    public var hex: String { Hex.encode(digest) }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let commitment = Commitment(hex: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a commitment is \(Self.byteCount * 2) hex digits")
        }
        self = commitment
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
