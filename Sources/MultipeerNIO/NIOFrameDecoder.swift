import Multipeer
import NIOCore

/// Cuts the bytes of a connection into ``Multipeer/Frame``s, as swift-nio's single-step
/// decoders do: the connection's ``ConnectionBridge`` drives it with a
/// `NIOSingleStepByteToMessageProcessor`, and the tests check it at every split point with
/// `ByteToMessageDecoderVerifier` — the same decoder, fed the same way.
///
/// As soon as the four bytes of a length prefix are readable it asks
/// ``Multipeer/FrameCodec/frameLength(prefix:maximum:)``, so an oversized frame is refused before
/// anything is buffered for its body; then it waits for the whole frame and decodes it in place
/// (``Multipeer/FrameCodec`` makes the same calls for every transport). Bytes of a frame still
/// arriving are kept in a buffer sized for that frame, never in a much larger one it came in
/// (``keepRightSized(_:frameBytes:)``), and a buffer read to its end is let go at once: the
/// processor keeps whatever the decoder leaves in its buffer until the next read, and over TLS a
/// buffer kept is NIOSSL's own read buffer, which NIOSSL then copies whole (32 KiB, every page
/// touched) at that read. It only frames: errors go up, and what to do about them is the bridge's
/// call.
struct NIOFrameDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = Frame

    /// The largest frame accepted, counting the kind byte and the body.
    let maximumFrameLength: Int
    /// The message types the connection has received, each decoded once.
    private var names = MessageTypeNames()

    init(maximumFrameLength: Int) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// The next whole frame, or nil (reading nothing) until one has arrived.
    /// - Throws: ``Multipeer/MultipeerError`` for an oversized, empty or malformed frame.
    mutating func decode(buffer: inout ByteBuffer) throws -> Frame? {
        let prefixBytes = WireProtocol.lengthPrefixBytes
        guard let prefix = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else {
            Self.keepRightSized(&buffer, frameBytes: prefixBytes)
            return nil
        }
        let length = try FrameCodec.frameLength(prefix: prefix, maximum: maximumFrameLength)
        guard buffer.readableBytes >= prefixBytes + length else {
            Self.keepRightSized(&buffer, frameBytes: prefixBytes + length)
            return nil
        }
        let decoded = buffer.withUnsafeReadableBytes { bytes in
            Result { () throws(MultipeerError) in
                try FrameCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[prefixBytes..<(prefixBytes + length)]), names: &names)
            }
        }
        buffer.moveReaderIndex(forwardBy: prefixBytes + length)
        // Read to its end: the processor keeps an empty buffer (no storage) in its place.
        if buffer.readableBytes == 0 { buffer = ByteBuffer() }
        return try decoded.get()
    }

    /// The most storage a buffer may hold beyond the frame it waits to complete before that
    /// frame's bytes move to a buffer of their own (``keepRightSized(_:frameBytes:)``).
    static let maximumSpareBytes = 4096

    /// While a frame has not fully arrived, its bytes wait in `buffer` until the next read; when
    /// that buffer's storage is far larger than the frame (over TLS it is NIOSSL's own 32 KiB read
    /// buffer, which NIOSSL would then copy whole at its next read, every page touched; or one
    /// that held a large frame before), the bytes move to a buffer just large enough for the
    /// whole frame, and the large storage is let go.
    static func keepRightSized(_ buffer: inout ByteBuffer, frameBytes: Int) {
        let needed = max(frameBytes, buffer.readableBytes)
        guard buffer.readableBytes > 0, buffer.storageCapacity - needed > maximumSpareBytes else { return }
        var own = ByteBufferAllocator().buffer(capacity: needed)
        own.writeBuffer(&buffer)
        buffer = own
    }

    /// The frames left when the connection ends; bytes of a frame that never finished are a
    /// malformed frame.
    mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> Frame? {
        if let frame = try decode(buffer: &buffer) { return frame }
        if seenEOF, buffer.readableBytes > 0 {
            throw MultipeerError.malformedFrame("the connection ended inside a frame")
        }
        return nil
    }
}
