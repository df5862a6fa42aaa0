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
        let prefixBytes = WireProtocol.lengthPrefixBytes
        guard let prefix = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        let length = try FrameCodec.frameLength(prefix: prefix, maximum: maximumFrameLength)
        guard buffer.readableBytes >= prefixBytes + length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: prefixBytes)
        let frame = try buffer.readWithUnsafeReadableBytes { bytes in
            (length, try FrameCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[..<length])))
        }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if seenEOF, buffer.readableBytes > 0 {
            throw MultipeerError.malformedFrame("the connection ended inside a frame")
        }
        return .needMoreData
    }
}
