import Crypto
import CryptoExtras
import Foundation
import Multipeer

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

    /// scrypt's cost: how much work and memory one derivation takes. Both sides of a game must
    /// use the same cost, or their keys differ and every proof fails.
    public struct Cost: Sendable, Equatable {
        /// N, the number of rounds (a power of two above 1).
        public var rounds: Int
        /// r, the block size.
        public var blockSize: Int
        /// p, the parallelism.
        public var parallelism: Int

        /// A cost of N = `rounds`, r = `blockSize`, p = `parallelism`. Every guessnum uses
        /// ``standard``; a lower cost is for tests that are not about the derivation's cost.
        public init(rounds: Int, blockSize: Int, parallelism: Int) {
            self.rounds = rounds
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// N = 2^15, r = 8, p = 1: the interactive-login parameters recommended by scrypt's author
        /// (32 MiB, and about a tenth of a second in a release build; several times that in a
        /// debug build).
        public static let standard = Cost(rounds: 1 << 15, blockSize: 8, parallelism: 1)
    }

    /// Prefixed to the host's identity to make scrypt's salt.
    static let saltLabel = Array("guessnum password key v1".utf8)
    /// Prefixed to both identities to make the proven message.
    static let proofLabel = Array("guessnum password proof v1".utf8)

    /// Derives the key of `password` for the game of `host`. scrypt is slow on purpose, so the
    /// derivation runs on a thread of its own, never on Swift's cooperative pool (where it would
    /// stop every other task of the program meanwhile): compute the key once and keep it.
    public static func key(for password: GamePassword, host: UUID, cost: Cost = .standard) async -> Key {
        await key(for: password, host: host, cost: cost, deriving: derive)
    }

    /// ``key(for:host:cost:)`` with the derivation given: where `derive` runs is what tests check.
    static func key(
        for password: GamePassword, host: UUID, cost: Cost, deriving derive: @escaping @Sendable (GamePassword, UUID, Cost) -> Key
    ) async -> Key {
        await onOwnThread { derive(password, host, cost) }
    }

    static func derive(_ password: GamePassword, host: UUID, cost: Cost) -> Key {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: password.bytes, salt: saltLabel + bytes(of: host), outputByteCount: 32,
                rounds: cost.rounds, blockSize: cost.blockSize, parallelism: cost.parallelism)
            return Key(key: key, host: host)
        } catch {
            // The standard cost is valid; only a test's invalid cost or running out of memory fails.
            preconditionFailure("scrypt with N=\(cost.rounds), r=\(cost.blockSize), p=\(cost.parallelism) failed: \(error)")
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
