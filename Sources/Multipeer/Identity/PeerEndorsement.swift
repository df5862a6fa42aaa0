import Crypto
import Foundation

/// An owner key's signature saying that another key speaks for it: how one person's several
/// running programs, each its own peer with its own key, are known as that one person.
///
/// Two programs of one account must be two peers (see `MultipeerPOSIX`'s `ClaimedIdentity`), so each has its own
/// ``PeerKey``. The account's first key — its owner key — endorses the others: it signs their
/// ``PeerFingerprint``s. A peer that proves its own key (over TLS) and shows an endorsement of
/// that key thereby proves the owner's too, and whoever remembered the owner recognises it.
/// An endorsement names the key it endorses, so it is worth nothing to anyone who does not hold
/// that key: it may travel in the open (`MultipeerNIO` puts it in the TLS certificate).
///
/// Its bytes (``bytes``, ``init(bytes:)``): a version byte (1), the owner's P-256 public key in
/// its 33-byte compressed form, and the 64-byte raw ECDSA signature, over SHA-256, of
/// ``signedPrefix`` followed by the 32 bytes of the endorsed key's fingerprint.
public struct PeerEndorsement: Sendable, Hashable {
    /// The owner's public key.
    public let owner: P256.Signing.PublicKey
    /// The owner's signature.
    let signature: P256.Signing.ECDSASignature

    /// What every signed message starts with, so that no other signature of the owner key can
    /// be taken for an endorsement.
    public static let signedPrefix = Array("multipeer peer endorsement v1\n".utf8)
    /// The number of bytes of an encoded endorsement.
    public static let byteCount = 1 + 33 + 64

    /// `owner` endorses the key whose fingerprint is `key`.
    public init(endorsing key: PeerFingerprint, by owner: PeerKey) throws(MultipeerError) {
        do {
            signature = try owner.privateKey.signature(for: Self.signedPrefix + key.bytes)
        } catch {
            throw MultipeerError(.identityStorage, "Could not sign with the owner key (\(error)).", underlying: error)
        }
        self.owner = owner.privateKey.publicKey
    }

    /// Reads encoded bytes; nil when they are not an endorsement of this layout.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount, bytes[0] == 1,
              let owner = try? P256.Signing.PublicKey(compressedRepresentation: bytes[1..<34]),
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: bytes[34...])
        else { return nil }
        self.owner = owner
        self.signature = signature
    }

    /// The owner's identity (its key's ``PeerFingerprint/identity``).
    public var ownerIdentity: UUID { PeerFingerprint(publicKey: owner).identity }

    /// The encoded endorsement.
    public var bytes: [UInt8] {
        [1] + Array(owner.compressedRepresentation) + Array(signature.rawRepresentation)
    }

    /// The owner's fingerprint when this endorses `key`; nil when it endorses another key, or its
    /// signature is not the owner's.
    public func owner(ifEndorsing key: PeerFingerprint) -> PeerFingerprint? {
        guard owner.isValidSignature(signature, for: Self.signedPrefix + key.bytes) else { return nil }
        return PeerFingerprint(publicKey: owner)
    }

    public static func == (lhs: PeerEndorsement, rhs: PeerEndorsement) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}

/// What a peer proved of itself on a connection: its own key, and the owner whose endorsement of
/// that key it showed (see ``PeerEndorsement``).
public struct PeerProof: Sendable, Hashable {
    /// The fingerprint of the key the peer proved it holds.
    public let key: PeerFingerprint
    /// The fingerprint of the owner key that endorsed ``key``; nil when the peer showed no
    /// endorsement, or one of another key.
    public let owner: PeerFingerprint?

    public init(key: PeerFingerprint, owner: PeerFingerprint? = nil) {
        self.key = key
        self.owner = owner
    }

    /// Whose peer this is: the owner's key when one endorsed it, else its own — what a program
    /// remembers to recognise the person behind the peer.
    public var holder: PeerFingerprint { owner ?? key }
}
