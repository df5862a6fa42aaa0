#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
@testable import MultipeerNIO
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import NIOCore
import NIOEmbedded
import Testing

/// The pipeline of one connection (decoder and bridge) against an `EmbeddedChannel`: the
/// handler contract, without sockets or timing.
@Suite("Connection pipeline", .timeLimit(.minutes(1)))
struct ConnectionBridgeTests {
    private func makeOpenChannel(_ handler: RecordingHandler, maximumFrameLength: Int = 1024) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try ConnectionPipeline.configure(channel, side: .accepting, options: LinkOptions(maximumFrameLength: maximumFrameLength), credentials: nil, handler: handler)
        #expect(handler.events.isEmpty, "nothing before the channel is active")
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 4242)).wait()
        return channel
    }

    @Test func opensFirstThenDeliversFramesInOrder() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler)
        #expect(handler.events == [.opened])
        #expect(handler.connection?.remoteDescription == "127.0.0.1:4242")
        try channel.writeInbound(ByteBuffer(bytes: SampleFrames.stream))
        #expect(handler.events == [.opened] + SampleFrames.all.map { .received($0) })
        _ = try channel.finish()
        #expect(handler.events.last == .closed(nil))
        #expect(handler.followedContract)
    }

    @Test func aCloseFromInsideAReadIsReportedAfterTheReadHasReturned() throws {
        let handler = RecordingHandler(reaction: .close)
        let channel = try makeOpenChannel(handler)
        try channel.writeInbound(ByteBuffer(bytes: FrameCodec.encode(.heartbeat).bytes + FrameCodec.encode(.goodbye(reason: nil)).bytes))
        channel.embeddedEventLoop.run()
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))  // past the close's grace period
        #expect(handler.isClosed)
        #expect(!handler.overlapped, "the close was not reported from inside the read that asked for it")
        #expect(handler.events.first == .opened && handler.events.last == .closed(nil))
        #expect(handler.followedContract)
        _ = try? channel.finish()
    }

    @Test func aDecoderErrorClosesTheChannelAndIsReportedLast() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler, maximumFrameLength: 100)
        try channel.writeInbound(ByteBuffer(bytes: FrameCodec.encode(.heartbeat).bytes + [0, 0, 1, 0]))
        #expect(!channel.isActive)
        #expect(handler.events == [.opened, .received(.heartbeat), .closed(.frameTooLarge(256, limit: 100))])
        // Bytes arriving after the error are not decoded and change nothing.
        _ = try? channel.writeInbound(ByteBuffer(bytes: FrameCodec.encode(.heartbeat).bytes))
        #expect(handler.events.count == 3)
        #expect(handler.followedContract)
    }

    @Test func endOfStreamInsideAFrameIsReportedAsMalformed() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler)
        try channel.writeInbound(ByteBuffer(bytes: FrameCodec.encode(.goodbye(reason: "bye")).bytes.dropLast()))
        _ = try? channel.finish()
        #expect(handler.closeError == .some(.malformedFrame("the connection ended inside a frame")))
        #expect(handler.followedContract)
    }

    @Test func anIOErrorBecomesAnUnexpectedClose() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler)
        channel.pipeline.fireErrorCaught(IOError(errnoCode: ECONNRESET, reason: "read"))
        #expect(!channel.isActive)
        let error = try #require(handler.closeError ?? nil)
        #expect(error.code == .connectionClosed)
        #expect(error.message == "The connection closed unexpectedly (the other side reset it).")
        #expect(handler.followedContract)
    }

    @Test func onlyTheFirstErrorIsReported() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler)
        channel.pipeline.fireErrorCaught(MultipeerError.malformedFrame("first"))
        channel.pipeline.fireErrorCaught(MultipeerError.malformedFrame("second"))
        #expect(handler.events == [.opened, .closed(.malformedFrame("first"))])
    }

    @Test func closeWritesEverythingQueuedThenClosesInAnOrderlyWay() throws {
        let handler = RecordingHandler()
        let channel = try makeOpenChannel(handler)
        let connection = try #require(handler.connection)
        let frames = SampleFrames.all
        for frame in frames { connection.send(FrameCodec.encode(frame)) }
        connection.close()
        connection.send(FrameCodec.encode(.heartbeat))  // after close: dropped
        channel.embeddedEventLoop.run()
        var written: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
        #expect(written == SampleFrames.stream)
        #expect(!channel.isActive)
        #expect(handler.events.last == .closed(nil))
        #expect(handler.followedContract)
    }

    /// On a channel whose loop may be driven from any thread (an `EmbeddedChannel` may not:
    /// NIO reports each such use as API misuse), sends from another thread are queued and
    /// drained on the loop in their order.
    @Test func sendsFromAnyThreadKeepTheirOrder() async throws {
        let handler = RecordingHandler()
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try ConnectionPipeline.configure(channel, side: .accepting, options: LinkOptions(), credentials: nil, handler: handler)
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 4242))
        let connection = try #require(handler.connection)
        await onOwnThread {
            for number in 0..<100 { connection.send(FrameCodec.encode(SampleFrames.numbered(number))) }
        }
        await channel.testingEventLoop.run()
        var written: [UInt8] = []
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
        #expect(written == (0..<100).flatMap { FrameCodec.encode(SampleFrames.numbered($0)).bytes })
        _ = try await channel.finish()
    }

    @Test func onlyTheFirstOfSeveralConnectAttemptsReachesTheHandler() throws {
        // Happy Eyeballs may try several addresses for one connect; they share one gate and promise.
        let loop = EmbeddedEventLoop()
        let handler = RecordingHandler()
        let gate = OpenGate()
        let opened = loop.makePromise(of: TCPConnection.self)
        let attempts = try (0..<3).map { _ in
            let channel = EmbeddedChannel(loop: loop)
            try ConnectionPipeline.configure(channel, side: .connecting, options: LinkOptions(), credentials: nil, handler: handler, gate: gate, opened: opened)
            return channel
        }
        // The first attempt fails before it opens: neither the handler nor the promise hears of it.
        _ = try attempts[0].finish()
        // The second opens and wins; the third opens too late and is closed without a word.
        try attempts[1].connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try attempts[2].connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        #expect(try opened.futureResult.wait().remoteDescription == "127.0.0.1:1")
        #expect(!attempts[2].isActive)
        #expect(handler.events == [.opened])
        _ = try attempts[1].finish()
        #expect(handler.events == [.opened, .closed(nil)])
    }
}
