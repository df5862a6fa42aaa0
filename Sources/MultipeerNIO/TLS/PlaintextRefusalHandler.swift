import Multipeer
import NIOCore

/// On an accepting connection that speaks TLS, answers a peer that does not: a client of an
/// earlier release (plaintext HELLO) reads a DECLINE it understands, with a sentence, instead of
/// a dropped connection; anything else that is not a TLS handshake record is closed at once.
///
/// It looks at the first byte only: a TLS connection begins with a handshake record (22).
/// Either way it then passes everything on unchanged.
final class PlaintextRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The first byte of every TLS connection: a handshake record.
    static let handshakeRecord: UInt8 = 22

    /// The sentence an earlier release's client reads.
    static let reason = "this host accepts only encrypted connections (TLS 1.3); update guessnum on both machines to the same release"

    private var decided = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        guard !decided, let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else {
            context.fireChannelRead(data)
            return
        }
        decided = true
        if first == Self.handshakeRecord {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        let decline = FrameCodec.encode(.decline(.init(cause: .unsupportedVersion, reason: Self.reason)))
        var reply = context.channel.allocator.buffer(capacity: decline.bytes.count)
        reply.writeBytes(decline.bytes)
        // Below the TLS handler, so written as it is, in plaintext; the error (which closes the
        // connection) only once the answer is out.
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(reply)).whenComplete { _ in
            bound.value.fireErrorCaught(MultipeerError(
                .unsupportedProtocolVersion, "The peer spoke without encryption (an earlier release, or not guessnum); it was told to update."))
        }
    }
}
