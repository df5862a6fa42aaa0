import CSodium

/// The ristretto255 group (RFC 9496) through libsodium: every group operation of CPace is one
/// call into it, nothing here computes on points or scalars itself.
enum Ristretto255 {
    /// How many bytes an encoded element and a scalar have.
    static let elementBytes = 32
    /// How many bytes `element(fromHash:)` takes.
    static let hashBytes = 64

    /// libsodium's one-time set-up (picks its implementations for this processor); idempotent.
    private static let initialized: Bool = sodium_init() >= 0

    /// The element a 64-byte uniformly random string maps to (RFC 9496's element derivation).
    static func element(fromHash hash: [UInt8]) -> [UInt8] {
        precondition(initialized && hash.count == hashBytes, "libsodium is unusable, or the hash is not 64 bytes")
        var element = [UInt8](repeating: 0, count: elementBytes)
        _ = crypto_core_ristretto255_from_hash(&element, hash)
        return element
    }

    /// `scalar · element`, encoded; nil when `element` does not decode to a group element or
    /// the product is the neutral element (CPace's `scalar_mult_vfy` returning `G.I`).
    static func multiply(_ scalar: [UInt8], _ element: [UInt8]) -> [UInt8]? {
        precondition(initialized && scalar.count == elementBytes, "libsodium is unusable, or the scalar is not 32 bytes")
        guard element.count == elementBytes else { return nil }
        var product = [UInt8](repeating: 0, count: elementBytes)
        return crypto_scalarmult_ristretto255(&product, scalar, element) == 0 ? product : nil
    }

    /// A random scalar as CPace samples it: 32 random bytes with the bits above the group
    /// order's 252 cleared, read little-endian.
    static func randomScalar() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var scalar = (0..<elementBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        scalar[elementBytes - 1] &= 0x0f
        return scalar
    }
}
