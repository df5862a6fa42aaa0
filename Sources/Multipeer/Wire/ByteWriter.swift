import Foundation

/// Appends big-endian integers and length-prefixed strings to a byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func reserveLengthPrefix() {
        bytes.append(contentsOf: [0, 0, 0, 0])
    }

    mutating func write(_ value: UInt8) { bytes.append(value) }

    mutating func write(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func write(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    mutating func write(_ value: [UInt8]) { bytes.append(contentsOf: value) }
    mutating func write(_ value: Data) { bytes.append(contentsOf: value) }

    mutating func write(_ uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
    }

    /// How HELLO and ACCEPT begin: the protocol marker, the version, the peer's identity and name.
    mutating func writeIntroduction(version: UInt16, peer: PeerID) {
        write(WireProtocol.magic)
        write(version)
        write(peer.identity)
        writeShortString(peer.displayName)
    }

    /// One length byte, then up to 255 bytes of UTF-8. Callers validate lengths first; longer
    /// text would be cut after the last whole character that fits.
    mutating func writeShortString(_ text: String) {
        let utf8 = text.utf8
        if utf8.count <= 255 {  // always, for validated names and message types: no copies
            write(UInt8(utf8.count))
            bytes.append(contentsOf: utf8)
            return
        }
        var fitting = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if fitting + width > 255 { break }
            fitting += width
        }
        write(UInt8(fitting))
        bytes.append(contentsOf: utf8.prefix(fitting))
    }

    /// Fills in the length prefix reserved at the start and returns the bytes.
    mutating func finishWithLengthPrefix() -> [UInt8] {
        let length = UInt32(bytes.count - WireProtocol.lengthPrefixBytes)
        bytes[0] = UInt8(length >> 24)
        bytes[1] = UInt8((length >> 16) & 0xFF)
        bytes[2] = UInt8((length >> 8) & 0xFF)
        bytes[3] = UInt8(length & 0xFF)
        return bytes
    }
}
