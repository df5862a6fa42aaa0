@testable import MultipeerNIO
import Multipeer
import MultipeerTestSupport
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

/// The transport's frame decoder, checked as swift-nio checks its own (`ByteToMessageDecoderVerifier`)
/// and fed every split point both behind NIO's `ByteToMessageHandler` and in the connection's own
/// ``ConnectionBridge``, which drives it in the product.
@Suite("The transport's frame decoder", .timeLimit(.minutes(1)))
struct NIOFrameDecoderTests {
    private func makeChannel(maximumFrameLength: Int = WireProtocol.defaultMaximumFrameLength) -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(NIOFrameDecoder(maximumFrameLength: maximumFrameLength)))
    }

    @Test("swift-nio's ByteToMessageDecoderVerifier: each sample frame, and all of them together, at every split point, byte by byte and with reentrancy")
    func verifiedAsSwiftNIOVerifiesItsDecoders() throws {
        var pairs = SampleFrames.all.map { (ByteBuffer(bytes: FrameCodec.encode($0).bytes), [$0]) }
        pairs.append((ByteBuffer(bytes: SampleFrames.stream), SampleFrames.all))
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) {
            NIOFrameDecoder(maximumFrameLength: WireProtocol.defaultMaximumFrameLength)
        }
    }

    @Test("The connection's bridge, the framing the product runs, hands its handler the same frames at every split point and byte by byte")
    func theBridgeAtEverySplitPoint() throws {
        for (name, chunks) in SampleFrames.chunkings {
            let handler = RecordingHandler()
            let channel = EmbeddedChannel(handler: ConnectionBridge(handler: handler))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            for chunk in chunks { try channel.writeInbound(ByteBuffer(bytes: chunk)) }
            #expect(handler.frames == SampleFrames.all, "\(name)")
            _ = try channel.finish()
            #expect(handler.closeError == .some(nil), "an orderly close after whole frames: \(name)")
        }
    }

    @Test("The bridge closes a connection that ends inside a frame with that reason, after delivering the whole frames before it")
    func theBridgeAtAnEndInsideAFrame() throws {
        let handler = RecordingHandler()
        let channel = EmbeddedChannel(handler: ConnectionBridge(handler: handler))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        let firstLength = FrameCodec.encode(SampleFrames.all[0]).bytes.count
        try channel.writeInbound(ByteBuffer(bytes: SampleFrames.stream[..<(firstLength + 3)]))
        _ = try? channel.finish()
        #expect(handler.frames == [SampleFrames.all[0]])
        #expect(handler.closeError??.message.contains("the connection ended inside a frame") == true, "\(String(describing: handler.closeError))")
    }

    private func readFrames(_ channel: EmbeddedChannel) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try channel.readInbound(as: Frame.self) { frames.append(frame) }
        return frames
    }

    private func feed(_ bytes: some Collection<UInt8>, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    @Test func decodesEveryKindOfFrameInOneChunk() throws {
        let channel = makeChannel()
        try feed(SampleFrames.stream, to: channel)
        #expect(try readFrames(channel) == SampleFrames.all)
        #expect(try channel.finish().isClean)
    }

    @Test func decodesTheSameFramesAtEverySplitPointAndByteByByte() throws {
        for (name, chunks) in SampleFrames.chunkings {
            let channel = makeChannel()
            var frames: [Frame] = []
            for chunk in chunks {
                try feed(chunk, to: channel)
                frames += try readFrames(channel)
            }
            #expect(frames == SampleFrames.all, "\(name)")
            #expect(try channel.finish().isClean, "\(name)")
        }
    }

    @Test func aFrameIsDeliveredOnlyOnceComplete() throws {
        let bytes = FrameCodec.encode(SampleFrames.all[0]).bytes
        let channel = makeChannel()
        try feed(bytes.dropLast(), to: channel)
        #expect(try readFrames(channel).isEmpty)
        try feed(bytes.suffix(1), to: channel)
        #expect(try readFrames(channel) == [SampleFrames.all[0]])
    }

    @Test func endOfStreamInsideAFrameIsMalformed() throws {
        let bytes = SampleFrames.stream
        let channel = makeChannel()
        let firstLength = FrameCodec.encode(SampleFrames.all[0]).bytes.count
        try feed(bytes[..<(firstLength + 3)], to: channel)
        #expect(try readFrames(channel) == [SampleFrames.all[0]])
        let error = #expect(throws: MultipeerError.self) { _ = try channel.finish() }
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("the connection ended inside a frame") == true)
    }

    @Test func endOfStreamInsideALengthPrefixIsMalformed() throws {
        let channel = makeChannel()
        try feed([0, 0], to: channel)
        let error = #expect(throws: MultipeerError.self) { _ = try channel.finish() }
        #expect(error?.code == .malformedFrame)
    }

    @Test func anOversizedLengthIsRefusedFromThePrefixAlone() throws {
        let channel = makeChannel()
        let error = #expect(throws: MultipeerError.self) { try feed([0xFF, 0xFF, 0xFF, 0xF0], to: channel) }
        #expect(error == .frameTooLarge(0xFFFF_FFF0, limit: WireProtocol.defaultMaximumFrameLength))
        _ = try? channel.finish()
    }

    @Test func theLimitIsInclusive() throws {
        let limit = 100
        let atLimit = FrameCodec.encode(.data(messageType: nil, payload: .init(count: limit - 2)))
        #expect(atLimit.frameLength == limit)
        let channel = makeChannel(maximumFrameLength: limit)
        try feed(atLimit.bytes, to: channel)
        #expect(try readFrames(channel).count == 1)

        let overLimit = FrameCodec.encode(.data(messageType: nil, payload: .init(count: limit - 1)))
        let error = #expect(throws: MultipeerError.self) { try feed(overLimit.bytes.prefix(4), to: channel) }
        #expect(error == .frameTooLarge(limit + 1, limit: limit))
        _ = try? channel.finish()
    }

    @Test("Every malformed sample (the stream frames' included) is malformed to the NIO decoder too, whole or a byte at a time", arguments: SampleFrames.malformed.map(\.what))
    func everyMalformedSample(what: String) throws {
        let bytes = try #require(SampleFrames.malformed.first { $0.what == what }?.bytes)
        for chunks in [[bytes[...]], bytes.indices.map { bytes[$0...$0] }] {
            let channel = makeChannel()
            let error = #expect(throws: MultipeerError.self) { for chunk in chunks { try feed(chunk, to: channel) } }
            #expect(error?.code == .malformedFrame, "\(what)")
            _ = try? channel.finish()
        }
    }

    @Test func aZeroLengthIsMalformed() throws {
        let channel = makeChannel()
        let error = #expect(throws: MultipeerError.self) { try feed([0, 0, 0, 0], to: channel) }
        #expect(error?.code == .malformedFrame)
        _ = try? channel.finish()
    }

    @Test(arguments: SampleFrames.malformed)
    func garbageIsMalformed(_ what: String, _ bytes: [UInt8]) throws {
        let channel = makeChannel()
        let error = #expect(throws: MultipeerError.self, "\(what)") { try feed(bytes, to: channel) }
        #expect(error?.code == .malformedFrame, "\(what)")
        _ = try? channel.finish()
    }

    @Test func framesBeforeAnErrorAreStillDelivered() throws {
        let channel = makeChannel()
        let good = FrameCodec.encode(.heartbeat).bytes
        #expect(throws: MultipeerError.self) { try feed(good + [0, 0, 0, 1, 0xEE], to: channel) }
        #expect(try readFrames(channel) == [.heartbeat])
        _ = try? channel.finish()
    }
}
