import Crypto

/// Six digits two people compare to check that nobody sits between them: the same on both
/// screens, and different but for a one-in-a-million chance per connection when a relay with
/// keys of its own sits in the middle, however much computing it spends.
///
/// A code from the two keys alone could be ground: a relay generates keys until its code with
/// the victim equals its code with the host, about a million tries for six digits, a fraction of
/// a second. So each connection's code also hashes two fresh nonces, exchanged in the order of
/// ZRTP's short authentication string and Bluetooth's numeric comparison:
///
/// 1. The inviter picks a nonce and sends only its commitment, ``commitment(to:)``, in HELLO.
/// 2. The advertiser answers with its own nonce in ACCEPT.
/// 3. The inviter reveals its nonce (REVEAL); the advertiser checks it against the commitment.
///
/// Whoever answers a HELLO must pick its nonce before it learns the inviter's, and whoever sends
/// a HELLO is bound to its nonce before it learns the advertiser's: neither side, nor a relay
/// playing both, can steer the digits, so a relay's two codes match by chance alone.
///
/// The code is SHA-256 over a fixed label, the inviter's fingerprint, the advertiser's, the
/// inviter's nonce and the advertiser's; its first four bytes read big-endian, modulo 1,000,000,
/// written as two groups of three digits.
public enum VerificationCode {
    /// The label that separates this digest from every other use of the fingerprints.
    static let label = Array("guessnum verification code v2".utf8)
    /// The label of the commitment's digest.
    static let commitmentLabel = Array("guessnum verification code commitment v2".utf8)
    /// How many bytes a nonce and a commitment have.
    public static let nonceBytes = 32

    /// A fresh random nonce for one connection's code.
    public static func nonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<nonceBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// What an inviter sends in its HELLO instead of its `nonce`: a SHA-256 digest that binds
    /// it to the nonce without showing it.
    public static func commitment(to nonce: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: commitmentLabel)
        hasher.update(data: nonce)
        return Array(hasher.finalize())
    }

    /// Whether `nonce` is the one `commitment` was made to.
    static func nonce(_ nonce: [UInt8], matches commitment: [UInt8]) -> Bool {
        nonce.count == nonceBytes && self.commitment(to: nonce) == commitment
    }

    /// The code of one connection: for example `"042 917"`.
    /// - Parameters:
    ///   - inviter: the key of the side that sent HELLO.
    ///   - advertiser: the key of the side that sent ACCEPT.
    ///   - inviterNonce: the nonce the inviter revealed.
    ///   - advertiserNonce: the nonce in the ACCEPT.
    public static func code(
        inviter: PeerFingerprint, advertiser: PeerFingerprint, inviterNonce: [UInt8], advertiserNonce: [UInt8]
    ) -> String {
        var hasher = SHA256()
        hasher.update(data: label)
        hasher.update(data: inviter.bytes)
        hasher.update(data: advertiser.bytes)
        hasher.update(data: inviterNonce)
        hasher.update(data: advertiserNonce)
        let digest = Array(hasher.finalize())
        let number = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(number)
        let padded = String(repeating: "0", count: 6 - digits.count) + digits
        return "\(padded.prefix(3)) \(padded.suffix(3))"
    }
}

/// What one connection's verification code is made of, once both nonces are known.
struct CodeNonces: Sendable {
    let inviter: [UInt8]
    let advertiser: [UInt8]
    /// Whether this side sent the HELLO.
    let localIsInviter: Bool

    /// The code between this side's key `local` and the other side's `remote`.
    func code(local: PeerFingerprint, remote: PeerFingerprint) -> String {
        VerificationCode.code(
            inviter: localIsInviter ? local : remote, advertiser: localIsInviter ? remote : local,
            inviterNonce: inviter, advertiserNonce: advertiser)
    }
}
