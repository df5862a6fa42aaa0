/// Thirty-two bytes written as exactly 64 lowercase hex digits: how salts and commitments travel.
///
/// Conforming types are `RawRepresentable` over that text, so their JSON is a plain string and
/// decoding anything else (another length, upper case, other characters) fails cleanly.
protocol HexString: RawRepresentable<String> {
    init(validatedText: String)
}

extension HexString {
    /// The value spelled by `rawValue`; nil unless it is 64 lowercase hex digits.
    public init?(rawValue: String) {
        let utf8 = rawValue.utf8
        guard utf8.count == 64, utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.init(validatedText: rawValue)
    }

    /// The value whose bytes are `bytes` (32 of them).
    init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 32, "a hex string holds 32 bytes")
        self.init(validatedText: bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
    }

    /// The 32 bytes the digits spell.
    public var bytes: [UInt8] {
        let digits = Array(rawValue.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
