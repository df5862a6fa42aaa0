import Foundation

/// JSON's pieces written through a pointer into memory sized beforehand: the hot path's
/// messages and a busy game's journal entries (guess-the-number's verdicts, a tick's entry),
/// where growing an array a byte at a time cost more than the bytes themselves (each `append`
/// checks the array's uniqueness and capacity). For the package's games, not its users.
///
/// Every write checks that it fits (a `precondition`, kept in release builds): a size
/// computed too small stops the program rather than writing past the memory.
package struct JSONWriter {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// The bytes written so far.
    @usableFromInline package internal(set) var count = 0

    /// A writer into `buffer`, from its start.
    @inlinable package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// What was written.
    @inlinable package var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes `body` writes into temporary memory of `capacity` bytes (on the stack when small).
    @inlinable package static func bytes(capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var writer = JSONWriter(buffer)
            body(&writer)
            count = writer.count
        }
    }

    /// The bytes `body` writes, as `Data`.
    @inlinable package static func data(capacity: Int, _ body: (inout JSONWriter) -> Void) -> Data {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = JSONWriter(buffer)
            body(&writer)
            return Data(buffer: writer.written)
        }
    }

    /// Appends the bytes `body` writes to `bytes`.
    @inlinable package static func append(to bytes: inout [UInt8], capacity: Int, _ body: (inout JSONWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = JSONWriter(buffer)
            body(&writer)
            bytes.append(contentsOf: writer.written)
        }
    }

    @inlinable package mutating func byte(_ byte: UInt8) {
        precondition(count < capacity, "JSONWriter: more bytes than its capacity")
        base[count] = byte
        count += 1
    }

    /// `text`'s bytes as they are (keys and punctuation: nothing to escape).
    @inlinable package mutating func literal(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(count + length <= capacity, "JSONWriter: more bytes than its capacity")
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Bytes that are JSON already (a payload encoded earlier), as they are.
    @inlinable package mutating func raw(_ bytes: [UInt8]) {
        precondition(count + bytes.count <= capacity, "JSONWriter: more bytes than its capacity")
        bytes.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }
            (base + count).update(from: start, count: source.count)
        }
        count += bytes.count
    }

    /// `text`'s UTF-8 as it is (text known to need no escapes: a message type).
    @inlinable package mutating func raw(_ text: String) {
        for byte in text.utf8 { self.byte(byte) }
    }

    /// At most 20 bytes: `-?digits`.
    package static var maximumNumberBytes: Int { 20 }

    /// `value` in decimal, as JSON (and `String(value)`) writes it.
    @inlinable package mutating func number(_ value: Int64) {
        precondition(count + Self.maximumNumberBytes <= capacity, "JSONWriter: more bytes than its capacity")
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// `value` in decimal.
    @inlinable package mutating func number(_ value: Int) { number(Int64(value)) }

    /// `value` in decimal.
    @inlinable package mutating func number(_ value: UInt64) {
        precondition(count + Self.maximumNumberBytes <= capacity, "JSONWriter: more bytes than its capacity")
        unsigned(value)
    }

    @inlinable mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        var magnitude = value
        var index = count + digits
        repeat {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// 36 bytes: the UUID in upper-case hex with dashes, as `UUID.uuidString` (and
    /// `JSONEncoder`) write it.
    package static var uuidBytes: Int { 36 }

    @inlinable package mutating func uuid(_ id: UUID) {
        precondition(count + Self.uuidBytes <= capacity, "JSONWriter: more bytes than its capacity")
        withUnsafeBytes(of: id.uuid) { raw in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    base[count] = UInt8(ascii: "-")
                    count += 1
                }
                base[count] = Self.hexDigit(raw[index] >> 4, upperCase: true)
                base[count + 1] = Self.hexDigit(raw[index] & 0x0F, upperCase: true)
                count += 2
            }
        }
    }

    /// The most bytes ``string(_:)`` writes for `text`: its quotes, and 6 a byte (`\u00XX`).
    @inlinable package static func maximumStringBytes(_ text: String) -> Int { 2 + 6 * text.utf8.count }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259,
    /// as `JSONEncoder` escapes them), everything else as UTF-8.
    @inlinable package mutating func string(_ text: String) {
        precondition(count + Self.maximumStringBytes(text) <= capacity, "JSONWriter: more bytes than its capacity")
        base[count] = UInt8(ascii: "\"")
        count += 1
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped(byte)
            case 0x0A: escaped(UInt8(ascii: "n"))
            case 0x0D: escaped(UInt8(ascii: "r"))
            case 0x09: escaped(UInt8(ascii: "t"))
            case 0x00..<0x20:
                escaped(UInt8(ascii: "u"))
                base[count] = 48
                base[count + 1] = 48
                base[count + 2] = Self.hexDigit(byte >> 4, upperCase: false)
                base[count + 3] = Self.hexDigit(byte & 0x0F, upperCase: false)
                count += 4
            default:
                base[count] = byte
                count += 1
            }
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    @inlinable mutating func escaped(_ letter: UInt8) {
        base[count] = UInt8(ascii: "\\")
        base[count + 1] = letter
        count += 2
    }

    @inlinable static func hexDigit(_ value: UInt8, upperCase: Bool) -> UInt8 {
        value < 10 ? 48 + value : (upperCase ? 55 : 87) + value
    }
}
