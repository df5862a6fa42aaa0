import Multipeer

/// 32 random bytes that hide a round's secret inside its ``Commitment`` until the reveal.
///
/// Without a salt, anyone could hash every number of the range and find the secret from the
/// commitment. On the wire a salt is 64 lowercase hex digits.
public struct Salt: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number of bytes in a salt.
    public static let byteCount = 32

    /// The salt's bytes, ``byteCount`` of them.
    public let bytes: [UInt8]

    /// A salt with the given bytes; nil unless there are exactly ``byteCount``.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A salt from 64 hex digits; nil for anything else.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// A fresh salt from the system's secure random source.
    public static func random() -> Salt {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for _ in 0..<(byteCount / 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Salt(uncheckedBytes: bytes)
    }

    private init(uncheckedBytes bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The salt as 64 lowercase hex digits.
    public var hex: String { Hex.encode(bytes) }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let salt = Salt(hex: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a salt is \(Self.byteCount * 2) hex digits")
        }
        self = salt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
