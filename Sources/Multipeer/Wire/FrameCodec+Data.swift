import Foundation

/// The size rule of a DATA frame: `length | kind | type length (UInt8) | type | payload`.
extension FrameCodec {
    /// The bytes a STREAM_DATA frame adds to the stream's bytes it carries: the length prefix,
    /// the kind and the stream's ID.
    public static let streamDataOverhead = WireProtocol.lengthPrefixBytes + 1 + 4

    /// The bytes a DATA frame spends besides its payload, counted in its length: the kind byte,
    /// the type's length byte and the type's UTF-8 (none for raw bytes, `messageType` nil).
    public static func dataFrameOverhead(messageType: String?) -> Int {
        2 + (messageType?.utf8.count ?? 0)
    }

    /// How many payload bytes a message of `messageType` (nil for raw bytes) may carry in one
    /// frame when frames may be at most `maximumFrameLength` bytes long (the length the prefix
    /// announces, as in ``SessionConfiguration/maximumFrameLength``); zero when not even an
    /// empty payload fits.
    ///
    /// A payload of exactly this many bytes is sent; one byte more is refused with
    /// ``MultipeerError/Code/messageTooLarge`` (see ``encodeData(_:messageType:maximumFrameLength:)``).
    /// Programs that split what they send (a long history, a welcome) size their parts with it.
    public static func maximumPayloadLength(messageType: String?, maximumFrameLength: Int) -> Int {
        max(0, maximumFrameLength - dataFrameOverhead(messageType: messageType))
    }

    /// Encodes a DATA frame carrying `payload`, typed `messageType` (nil for raw bytes), and
    /// checks it against `maximumFrameLength`.
    ///
    /// - Throws: ``MultipeerError/Code/messageEncodingFailed`` for a type that is empty or above
    ///   255 bytes; ``MultipeerError/Code/messageTooLarge`` for a frame above `maximumFrameLength`,
    ///   that is a payload above ``maximumPayloadLength(messageType:maximumFrameLength:)``.
    public static func encodeData(_ payload: Data, messageType: String?, maximumFrameLength: Int) throws(MultipeerError) -> EncodedFrame {
        let type = (messageType ?? "").utf8
        if let messageType, messageType.isEmpty || type.count > 255 {
            throw .invalidMessageType(messageType)
        }
        let frameLength = dataFrameOverhead(messageType: messageType) + payload.count
        if frameLength > maximumFrameLength {
            throw .messageTooLarge(frameLength, limit: maximumFrameLength)
        }
        // The bytes ``encode(_:)`` writes for `.data`, sized once and filled in place: every
        // message sent takes this path, and growing an array piece by piece cost more than the
        // copies themselves.
        let prefix = WireProtocol.lengthPrefixBytes
        let bytes = [UInt8](unsafeUninitializedCapacity: prefix + frameLength) { buffer, count in
            withUnsafeBytes(of: UInt32(frameLength).bigEndian) { length in
                UnsafeMutableRawBufferPointer(buffer).copyBytes(from: length)
            }
            buffer[prefix] = FrameKind.data.rawValue
            buffer[prefix + 1] = UInt8(type.count)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[(prefix + 2)...]).initialize(from: type)
            _ = payload.copyBytes(to: UnsafeMutableBufferPointer(rebasing: buffer[(prefix + 2 + type.count)...]))
            count = prefix + frameLength
        }
        return EncodedFrame(bytes: bytes)
    }
}
