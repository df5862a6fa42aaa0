import Crypto

/// Six digits two people can compare on first contact: derived from both peers' keys, the same
/// on both screens, and different (but for a one-in-a-million chance) when a third party sits
/// between them with keys of its own.
///
/// The code is SHA-256 over a fixed label and the two fingerprints in ascending order, its first
/// four bytes read big-endian, modulo 1,000,000, written as two groups of three digits.
public enum VerificationCode {
    /// The label that separates this digest from every other use of the fingerprints.
    static let label = Array("guessnum verification code v1".utf8)

    /// The code for the pair of `one` and `other`, in either order: for example `"042 917"`.
    public static func between(_ one: PeerFingerprint, _ other: PeerFingerprint) -> String {
        let (low, high) = one.bytes.lexicographicallyPrecedes(other.bytes) ? (one, other) : (other, one)
        var hasher = SHA256()
        hasher.update(data: label)
        hasher.update(data: low.bytes)
        hasher.update(data: high.bytes)
        let digest = Array(hasher.finalize())
        let number = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(number)
        let padded = String(repeating: "0", count: 6 - digits.count) + digits
        return "\(padded.prefix(3)) \(padded.suffix(3))"
    }
}
