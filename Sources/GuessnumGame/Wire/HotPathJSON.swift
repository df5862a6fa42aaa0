import Foundation

/// Hand-written JSON for the two messages on the hot path: the verdict a guesser waits for and
/// the guess it sends. Foundation's `JSONEncoder` spent about 20 µs per verdict here (generic
/// containers, dynamic casts), more than the loopback round trip itself; these functions write
/// the same JSON (decoders cannot tell them apart) directly into bytes.
enum HotPathJSON {
    /// `line` as its wire JSON.
    static func payload(of line: JudgedGuess) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + line.player.name.utf8.count)
        append(line, to: &bytes)
        return Data(bytes)
    }

    /// Appends `{"sequence":…,"round":…,"player":{"id":…,"name":…},"guess":…,"verdict":{…}}`.
    static func append(_ line: JudgedGuess, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"sequence":"#.utf8)
        appendNumber(line.sequence, to: &bytes)
        bytes.append(contentsOf: #","round":"#.utf8)
        appendNumber(line.round, to: &bytes)
        bytes.append(contentsOf: #","player":"#.utf8)
        append(line.player, to: &bytes)
        bytes.append(contentsOf: #","guess":"#.utf8)
        appendNumber(line.guess, to: &bytes)
        bytes.append(contentsOf: #","verdict":{"kind":""#.utf8)
        switch line.verdict {
        case .tooLow: bytes.append(contentsOf: #"tooLow"}"#.utf8)
        case .tooHigh: bytes.append(contentsOf: #"tooHigh"}"#.utf8)
        case .correct: bytes.append(contentsOf: #"correct"}"#.utf8)
        case .roundOver: bytes.append(contentsOf: #"roundOver"}"#.utf8)
        case .outOfRange(let range):
            bytes.append(contentsOf: #"outOfRange","range":{"lower":"#.utf8)
            appendNumber(range.lowerBound, to: &bytes)
            bytes.append(contentsOf: #","upper":"#.utf8)
            appendNumber(range.upperBound, to: &bytes)
            bytes.append(contentsOf: "}}".utf8)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A guess as its wire JSON, `{"guess":-?digits}`: what `JSONEncoder` writes for
    /// ``GuessMessage``, a few dozen times faster (a player's every guess takes this path).
    static func payload(ofGuess guess: Int64) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        bytes.append(contentsOf: #"{"guess":"#.utf8)
        appendNumber(guess, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// Appends `{"id":…,"name":…}`.
    static func append(_ player: PlayerRef, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"id":""#.utf8)
        appendUUID(player.id, to: &bytes)
        bytes.append(contentsOf: #"","name":"#.utf8)
        appendString(player.name, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The guess in `payload` when it has the exact form senders write (`{"guess":-?digits}`),
    /// or nil, in which case the caller decodes it the general way.
    static func guess(in payload: Data) -> Int64? {
        // Over the raw bytes: `Data`'s slices and iterators cost more than the rest of a guess's
        // judging here.
        payload.withUnsafeBytes { bytes -> Int64? in
            let prefix = #"{"guess":"#.utf8
            guard bytes.count > prefix.count + 1, bytes.count <= prefix.count + 21, bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
            guard bytes.starts(with: prefix) else { return nil }
            var index = prefix.count
            let end = bytes.count - 1
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let digits = end - index
            guard digits > 0, digits <= 19 else { return nil }
            if digits > 1, bytes[index] == 48 { return nil }  // JSON has no leading zeros
            var magnitude: UInt64 = 0
            while index < end {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                magnitude = magnitude * 10 + UInt64(digit)
                index += 1
            }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    // MARK: Pieces

    /// Hex digits, made once (an `Array` built per call allocated on every verdict).
    private static let upperHex = Array("0123456789ABCDEF".utf8)
    private static let lowerHex = Array("0123456789abcdef".utf8)

    static func appendNumber(_ value: some BinaryInteger, to bytes: inout [UInt8]) {
        // Digits straight into the bytes, without the `String` that `String(value)` allocates.
        guard let small = Int64(exactly: value) else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        if small < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = small.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[index...])
        }
    }

    /// The UUID in upper-case hex with dashes, as `UUID.uuidString` (and `JSONEncoder`) write it.
    static func appendUUID(_ id: UUID, to bytes: inout [UInt8]) {
        let hex = upperHex
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259),
    /// everything else as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let hex = lowerHex
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
