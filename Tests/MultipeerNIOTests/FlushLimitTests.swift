import Multipeer
@testable import MultipeerNIO
import MultipeerTestSupport
import NIOCore
import NIOEmbedded
import Testing

/// A link's flush limit (``LinkOptions/maximumFlushBytes``): no flush hands the layers below
/// more than the limit, frames keep their bytes and their order, and without a limit a frame
/// goes out in one flush.
@Suite("A link's flush limit", .timeLimit(.minutes(1)))
struct FlushLimitTests {
    /// Records what each flush hands on: the bytes written since the flush before.
    final class FlushRecorder: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        var pending = 0
        var flushes: [Int] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            pending += unwrapOutboundIn(data).readableBytes
            context.write(data, promise: promise)
        }

        func flush(context: ChannelHandlerContext) {
            if pending > 0 { flushes.append(pending) }
            pending = 0
            context.flush()
        }
    }

    /// A connection over an embedded channel (its loop is the caller's) whose flushes `recorder` sees.
    func connection(limit: Int?, recorder: FlushRecorder) throws -> (TCPConnection, EmbeddedChannel) {
        let channel = EmbeddedChannel(handler: recorder)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (TCPConnection(channel: channel, remoteDescription: "127.0.0.1:1", maximumFlushBytes: limit), channel)
    }

    func sent(by channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        return bytes
    }

    @Test("A frame longer than the limit goes out in flushed pieces, whole and in order, and frames under it together")
    func piecesWithinTheLimit() throws {
        let recorder = FlushRecorder()
        let (connection, channel) = try connection(limit: 1000, recorder: recorder)
        let frames = [SampleFrames.numbered(1, payloadBytes: 200), SampleFrames.numbered(2, payloadBytes: 5_000), SampleFrames.numbered(3, payloadBytes: 40)]
            .map(FrameCodec.encode)
        connection.send(frames[1])  // on the loop: written at once
        #expect(recorder.flushes == Array(repeating: 1000, count: frames[1].bytes.count / 1000) + [frames[1].bytes.count % 1000], "\(recorder.flushes)")
        // Queued as sends from elsewhere are, then drained together.
        for frame in frames { _ = connection.enqueue(ByteBuffer(bytes: frame.bytes)) }
        recorder.flushes = []
        connection.drain()
        #expect(recorder.flushes.allSatisfy { $0 <= 1000 }, "\(recorder.flushes)")
        #expect(recorder.flushes.reduce(0, +) == frames.map(\.bytes.count).reduce(0, +))
        #expect(recorder.flushes.first == 1000, "the first frame and the second's start share a flush: \(recorder.flushes)")
        #expect(try sent(by: channel) == frames[1].bytes + frames.flatMap(\.bytes))
    }

    @Test("Without a limit a frame goes out in one flush, and queued frames in one")
    func noLimit() throws {
        let recorder = FlushRecorder()
        let (connection, channel) = try connection(limit: nil, recorder: recorder)
        let frames = [SampleFrames.numbered(1, payloadBytes: 200), SampleFrames.numbered(2, payloadBytes: 5_000)].map(FrameCodec.encode)
        connection.send(frames[1])
        for frame in frames { _ = connection.enqueue(ByteBuffer(bytes: frame.bytes)) }
        connection.drain()
        #expect(recorder.flushes == [frames[1].bytes.count, frames.map(\.bytes.count).reduce(0, +)])
        #expect(try sent(by: channel) == frames[1].bytes + frames.flatMap(\.bytes))
    }
}
