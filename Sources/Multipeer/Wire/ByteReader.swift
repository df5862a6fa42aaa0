import Foundation

/// Reads big-endian integers and length-prefixed strings from a frame's bytes, never past the end.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int, _ what: String) throws(MultipeerError) -> UnsafeRawBufferPointer {
        guard remaining >= count else { throw .malformedFrame("the frame ends inside its \(what)") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func readUInt8() throws(MultipeerError) -> UInt8 {
        try take(1, "header")[0]
    }

    mutating func readUInt16() throws(MultipeerError) -> UInt16 {
        let raw = try take(2, "version")
        return UInt16(raw[0]) << 8 | UInt16(raw[1])
    }

    mutating func readUInt32(_ what: String = "timeout") throws(MultipeerError) -> UInt32 {
        let raw = try take(4, what)
        return raw.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readUInt64(_ what: String) throws(MultipeerError) -> UInt64 {
        let raw = try take(8, what)
        return raw.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads a stream id: 4 bytes, never 0.
    mutating func readStreamID() throws(MultipeerError) -> UInt32 {
        let raw = try take(4, "stream id")
        let id = raw.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard id != 0 else { throw .malformedFrame("stream id 0") }
        return id
    }

    /// Reads how HELLO and ACCEPT begin; see ``ByteWriter/writeIntroduction(version:peer:)``.
    mutating func readIntroduction() throws(MultipeerError) -> (version: UInt16, peer: PeerID) {
        try expectMagic()
        let version = try readUInt16()
        return (version, try readPeer())
    }

    mutating func expectMagic() throws(MultipeerError) {
        let raw = try take(WireProtocol.magic.count, "protocol marker")
        guard raw.elementsEqual(WireProtocol.magic) else { throw .malformedFrame("the protocol marker is missing") }
    }

    mutating func readPeer() throws(MultipeerError) -> PeerID {
        let raw = try take(16, "peer identity")
        let uuid = raw.withMemoryRebound(to: UInt8.self) { b in
            UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        }
        let name = try readShortString()
        do { return try PeerID(displayName: name, identity: uuid) } catch {
            throw .malformedFrame("the peer's display name is invalid")
        }
    }

    mutating func readShortString() throws(MultipeerError) -> String {
        let count = Int(try readUInt8())
        return try Self.utf8(take(count, "text"))
    }

    /// Reads a DATA frame's message type (a short string; nil when empty, for raw bytes), taking
    /// it from `names` when it is kept there.
    mutating func readMessageType(names: inout MessageTypeNames) throws(MultipeerError) -> String? {
        let count = Int(try readUInt8())
        guard count > 0 else { return nil }
        return try names.name(of: take(count, "text"), decode: Self.utf8)
    }

    mutating func readRemainingString() throws(MultipeerError) -> String {
        try Self.utf8(take(remaining, "text"))
    }

    /// Reads exactly `count` bytes, named `what` in the error when the frame is shorter.
    mutating func readBytes(_ count: Int, _ what: String) throws(MultipeerError) -> [UInt8] {
        Array(try take(count, what))
    }

    mutating func readRemainingData() -> Data {
        defer { offset = bytes.count }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }

    mutating func expectEnd() throws(MultipeerError) {
        guard remaining == 0 else { throw .malformedFrame("\(remaining) unexpected bytes at the end of a frame") }
    }

    private static func utf8(_ raw: UnsafeRawBufferPointer) throws(MultipeerError) -> String {
        guard let text = String(validating: raw, as: UTF8.self) else { throw .malformedFrame("text that is not UTF-8") }
        return text
    }
}
