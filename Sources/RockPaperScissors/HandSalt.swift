/// The 32 random bytes that hide a hand inside its ``HandCommitment`` until the reveal.
///
/// Without a salt anyone could hash the three hands and read a commitment. A salt is fresh for
/// every throw. On the wire it is 64 lowercase hex digits.
public struct HandSalt: HexString, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The salt as 64 lowercase hex digits.
    public let rawValue: String

    init(validatedText: String) {
        rawValue = validatedText
    }

    /// A fresh salt from `generator` (the system's secure source unless a test passes its own).
    public static func random(using generator: inout some RandomNumberGenerator) -> HandSalt {
        HandSalt(bytes: (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } })
    }

    /// A fresh salt from `SystemRandomNumberGenerator`.
    public static func random() -> HandSalt {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public var description: String { rawValue }
}
