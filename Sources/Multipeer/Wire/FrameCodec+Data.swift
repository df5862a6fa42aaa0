import Foundation

/// The size rule of a DATA frame: `length | kind | type length (UInt8) | type | payload`.
extension FrameCodec {
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
        if let messageType, messageType.isEmpty || messageType.utf8.count > 255 {
            throw .invalidMessageType(messageType)
        }
        let frame = encode(.data(messageType: messageType, payload: payload))
        if frame.frameLength > maximumFrameLength {
            throw .messageTooLarge(frame.frameLength, limit: maximumFrameLength)
        }
        return frame
    }
}
