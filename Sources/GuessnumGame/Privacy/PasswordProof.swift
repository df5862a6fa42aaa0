import Crypto
import CryptoExtras
import Foundation

/// The proof that a guest knows a private game's password, bound to the guest's and the host's
/// identities (PROTOCOL.md §10).
///
/// Both sides derive the same ``Key`` from the password with scrypt, salted with the host's
/// identity; the guest sends `HMAC-SHA256(key, "guessnum password proof v1" ‖ guest ‖ host)`
/// with its invitation, and the host computes the same and compares in constant time. The
/// password itself never leaves either program.
///
/// - The proof travels inside TLS, and only to a host whose key the guest has checked before
///   the invitation leaves (the discovered identity, and known hosts): a listener sees nothing.
/// - It names both identities, which the TLS handshake proves: a proof made for one host is
///   worth nothing at another, and only the guest that holds its key can present it.
/// - What remains: a host the guest wrongly trusts on first contact (someone else who announces
///   a game under that name) receives a proof it can test password guesses against offline, at
///   the cost of one scrypt derivation each. A good password, and comparing verification
///   codes, are the defence.
public enum PasswordProof {
    /// A key derived from a password for one host: compute it once, prove or check many times.
    public struct Key: Sendable {
        let key: SymmetricKey
        /// The host the key was derived for.
        public let host: UUID
    }

    /// scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB and about a tenth of a second here);
    /// the interactive-login parameters recommended by scrypt's author.
    static let rounds = 1 << 15
    static let blockSize = 8
    static let parallelism = 1
    /// Prefixed to the host's identity to make scrypt's salt.
    static let saltLabel = Array("guessnum password key v1".utf8)
    /// Prefixed to both identities to make the proven message.
    static let proofLabel = Array("guessnum password proof v1".utf8)

    /// Derives the key of `password` for the game of `host` (slow on purpose: run it off the
    /// main thread and keep the result).
    public static func key(for password: GamePassword, host: UUID) -> Key {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: password.bytes, salt: saltLabel + bytes(of: host), outputByteCount: 32,
                rounds: rounds, blockSize: blockSize, parallelism: parallelism)
            return Key(key: key, host: host)
        } catch {
            // The parameters are fixed and valid; only running out of memory could fail here.
            preconditionFailure("scrypt with fixed parameters failed: \(error)")
        }
    }

    /// The proof that `guest` knows the password `key` was derived from.
    public static func proof(_ key: Key, guest: UUID) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message(guest: guest, host: key.host), using: key.key))
    }

    /// Whether `proof` shows that `guest` knows the password `key` was derived from.
    public static func isValid(_ proof: Data, key: Key, guest: UUID) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(proof, authenticating: message(guest: guest, host: key.host), using: key.key)
    }

    private static func message(guest: UUID, host: UUID) -> [UInt8] {
        proofLabel + bytes(of: guest) + bytes(of: host)
    }

    /// The 16 bytes of an identity, in the order its text shows them.
    static func bytes(of identity: UUID) -> [UInt8] {
        withUnsafeBytes(of: identity.uuid) { Array($0) }
    }
}
