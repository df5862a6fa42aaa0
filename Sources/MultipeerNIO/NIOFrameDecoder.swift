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
/// (``Multipeer/FrameCodec`` makes the same calls for every transport). It only frames: errors
/// go up, and what to do about them is the bridge's call.
struct NIOFrameDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = Frame

    /// The largest frame accepted, counting the kind byte and the body.
    let maximumFrameLength: Int

    /// The next whole frame, or nil (reading nothing) until one has arrived.
    /// - Throws: ``Multipeer/MultipeerError`` for an oversized, empty or malformed frame.
    mutating func decode(buffer: inout ByteBuffer) throws -> Frame? {
        let prefixBytes = WireProtocol.lengthPrefixBytes
        guard let prefix = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        let length = try FrameCodec.frameLength(prefix: prefix, maximum: maximumFrameLength)
        guard buffer.readableBytes >= prefixBytes + length else { return nil }
        let decoded = buffer.withUnsafeReadableBytes { bytes in
            Result { () throws(MultipeerError) in try FrameCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[prefixBytes..<(prefixBytes + length)])) }
        }
        buffer.moveReaderIndex(forwardBy: prefixBytes + length)
        return try decoded.get()
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
