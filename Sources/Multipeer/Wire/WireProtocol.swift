/// Constants of the wire protocol (see `docs/PROTOCOL.md`).
public enum WireProtocol {
    /// The protocol version this library speaks.
    public static let version: UInt16 = 2
    /// The four bytes that open every hello and accept: `GNMP`.
    static let magic: [UInt8] = Array("GNMP".utf8)
    /// The size of the big-endian length that precedes every frame.
    public static let lengthPrefixBytes = 4
    /// The default largest frame, counting the kind byte and the body.
    public static let defaultMaximumFrameLength = 64 * 1024
}

/// The kind byte that follows a frame's length.
enum FrameKind: UInt8 {
    case hello = 0x01
    case accept = 0x02
    case decline = 0x03
    case data = 0x04
    case heartbeat = 0x05
    case goodbye = 0x06
    case reveal = 0x07
}
