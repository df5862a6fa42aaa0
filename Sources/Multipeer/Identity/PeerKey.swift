import Crypto
import Foundation

/// A peer's identity key: a P-256 signing key whose public half *is* the peer's identity.
///
/// The ``PeerID/identity`` of a peer with a key is the first 128 bits of the key's
/// ``PeerFingerprint`` (SHA-256 of its public key), so the identity a peer claims in its HELLO,
/// and the one a host announces in its TXT record, can be proved by a TLS handshake signed with
/// the key (see `MultipeerNIO`). Keep a key across launches with `MultipeerPOSIX`'s `PeerIdentityStore`.
public struct PeerKey: Sendable {
    /// The private key; it never leaves this process except into its `0600` key file.
    public let privateKey: P256.Signing.PrivateKey

    /// Wraps an existing private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// A new random key, from the system's secure random source.
    public static func generate() -> PeerKey {
        PeerKey(privateKey: P256.Signing.PrivateKey())
    }

    /// Reads a key from its PEM text (PKCS#8 or SEC1, as `openssl` writes either).
    /// - Throws: ``MultipeerError/Code/identityStorage`` when the text holds no P-256 key.
    public init(pemRepresentation pem: String) throws(MultipeerError) {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw MultipeerError(.identityStorage, "The text holds no P-256 private key (\(error)).", underlying: error)
        }
    }

    /// The key as PKCS#8 PEM text, for its file.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The fingerprint of the public key.
    public var fingerprint: PeerFingerprint { PeerFingerprint(publicKey: privateKey.publicKey) }

    /// The peer `displayName` whose identity this key proves.
    /// - Throws: ``MultipeerError/Code/invalidDisplayName``.
    public func peer(displayName: String) throws(MultipeerError) -> PeerID {
        try PeerID(displayName: displayName, identity: fingerprint.identity)
    }
}

/// The SHA-256 digest of a peer's public key in its DER form (SubjectPublicKeyInfo): what names
/// the key to people and in records.
///
/// Shown as 64 lowercase hexadecimal digits; its first 16 bytes are the peer's
/// ``PeerID/identity``.
public struct PeerFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The fingerprint of `publicKey`.
    public init(publicKey: P256.Signing.PublicKey) {
        bytes = Array(SHA256.hash(data: publicKey.derRepresentation))
    }

    /// Reads 64 hexadecimal digits; nil for anything else.
    public init?(hex text: String) {
        guard let bytes = Hex.decode(text), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// The identity a peer with this key has: the first 16 bytes, as a UUID.
    public var identity: UUID {
        let b = bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// 64 lowercase hexadecimal digits.
    public var description: String { Hex.encode(bytes) }
}
