import Multipeer
import NIOCore

/// Cuts the bytes of a connection into ``Multipeer/Frame``s: the channel-handler twin of
/// ``Multipeer/FrameDecoder``, making the same ``Multipeer/FrameCodec`` calls.
///
/// As soon as the four bytes of a length prefix are readable it asks
/// ``Multipeer/FrameCodec/frameLength(prefix:maximum:)``, so an oversized frame is refused before
/// anything is buffered for its body; then it waits for the whole frame and decodes it in place.
/// It only frames: errors go up the pipeline, and what to do about them is the bridge's call.
struct FrameDecodingHandler: ByteToMessageDecoder {
    typealias InboundOut = Frame

    /// The largest frame accepted, counting the kind byte and the body.
    let maximumFrameLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try Self.nextFrame(in: &buffer, maximumFrameLength: maximumFrameLength) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    /// Reads the next whole frame from `buffer`, or nil (reading nothing) until one has arrived.
    /// The connection pipeline's ``ConnectionBridge`` calls this directly, without the generic
    /// `ByteToMessageHandler` around it.
    /// - Throws: ``Multipeer/MultipeerError`` for an oversized, empty or malformed frame.
    static func nextFrame(in buffer: inout ByteBuffer, maximumFrameLength: Int) throws(MultipeerError) -> Frame? {
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

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if seenEOF, buffer.readableBytes > 0 {
            throw MultipeerError.malformedFrame("the connection ended inside a frame")
        }
        return .needMoreData
    }
}
