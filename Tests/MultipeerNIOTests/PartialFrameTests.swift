@_spi(CustomByteBufferAllocator) import NIOCore
import Foundation
@testable import MultipeerNIO
import Multipeer
import MultipeerTestSupport
import NIOEmbedded
import Synchronization
import Testing

/// Blocks freed by ``largeReadAllocator``: how the tests see that nothing keeps a read buffer.
private let largeReadBuffersFreed = Atomic<Int>(0)

/// Stands for NIOSSL's 32 KiB read buffer: malloc's, counting each block freed.
private let largeReadAllocator = ByteBufferAllocator(
    allocate: { malloc($0) },
    reallocate: { pointer, _, newSize in realloc(pointer, newSize) },
    deallocate: { pointer in
        largeReadBuffersFreed.add(1, ordering: .relaxed)
        free(pointer)
    },
    copy: { destination, source, count in destination.copyMemory(from: source, byteCount: Int(count)) }
)

/// A frame cut across reads: decoded right, and the large buffer it began in is not kept while
/// the rest is awaited (over TLS that buffer is NIOSSL's own, reused for every read).
@Suite("A frame across reads", .serialized, .timeLimit(.minutes(1)))
struct PartialFrameTests {
    /// `bytes` in a buffer of NIOSSL's read buffer's capacity.
    private func largeReadBuffer(_ bytes: some Collection<UInt8>) -> ByteBuffer {
        var buffer = largeReadAllocator.buffer(capacity: 32 * 1024)
        buffer.writeBytes(bytes)
        return buffer
    }

    @Test("The decoder moves a frame's first bytes out of a large buffer into one sized for the frame, and decodes the frame once the rest arrives")
    func theDecoderKeepsAPartialFrameRightSized() throws {
        let first = FrameCodec.encode(SampleFrames.all[0]).bytes
        let second = FrameCodec.encode(.data(messageType: "welcome", payload: .init(repeating: 7, count: 3000))).bytes
        var decoder = NIOFrameDecoder(maximumFrameLength: WireProtocol.defaultMaximumFrameLength)
        var buffer = largeReadBuffer(first + second.prefix(1000))
        #expect(try decoder.decode(buffer: &buffer) == SampleFrames.all[0])
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.readableBytesView.elementsEqual(second.prefix(1000)))
        #expect(buffer.storageCapacity < 32 * 1024)
        #expect(buffer.storageCapacity - second.count <= NIOFrameDecoder.maximumSpareBytes)
        buffer.writeBytes(second.dropFirst(1000))
        #expect(try decoder.decode(buffer: &buffer) == .data(messageType: "welcome", payload: .init(repeating: 7, count: 3000)))
        #expect(buffer.readableBytes == 0)
    }

    @Test("Even three bytes of a length prefix leave the large buffer")
    func aPartialPrefixLeavesTheLargeBuffer() throws {
        let frame = FrameCodec.encode(SampleFrames.all[1]).bytes
        var decoder = NIOFrameDecoder(maximumFrameLength: WireProtocol.defaultMaximumFrameLength)
        var buffer = largeReadBuffer(frame.prefix(3))
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.storageCapacity <= NIOFrameDecoder.maximumSpareBytes)
        buffer.writeBytes(frame.dropFirst(3))
        #expect(try decoder.decode(buffer: &buffer) == SampleFrames.all[1])
    }

    @Test("A buffer not much larger than the frame is kept as it is")
    func aSmallBufferIsKept() throws {
        let frame = FrameCodec.encode(SampleFrames.all[0]).bytes
        var decoder = NIOFrameDecoder(maximumFrameLength: WireProtocol.defaultMaximumFrameLength)
        var buffer = ByteBufferAllocator().buffer(capacity: 2048)
        buffer.writeBytes(frame.prefix(frame.count - 1))
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.storageCapacity == 2048)
    }

    @Test("A buffer read to its end is let go by the decoder: the processor that drives it keeps nothing of the read, and a frame cut after it still decodes")
    func theProcessorKeepsNoBufferReadToItsEnd() throws {
        let stream = SampleFrames.stream
        let last = FrameCodec.encode(.data(messageType: "welcome", payload: .init(repeating: 7, count: 3000))).bytes
        let processor = NIOSingleStepByteToMessageProcessor(NIOFrameDecoder(maximumFrameLength: WireProtocol.defaultMaximumFrameLength))
        var frames: [Frame] = []
        let freedBefore = largeReadBuffersFreed.load(ordering: .relaxed)
        try processor.process(buffer: largeReadBuffer(stream)) { frames.append($0) }
        #expect(frames == SampleFrames.all)
        #expect(processor.unprocessedBytes == 0)
        // The caller's buffer is gone: only the processor could still hold its storage.
        #expect(largeReadBuffersFreed.load(ordering: .relaxed) == freedBefore + 1, "the processor kept the read's buffer")
        try processor.process(buffer: largeReadBuffer(last.prefix(100))) { frames.append($0) }
        #expect(largeReadBuffersFreed.load(ordering: .relaxed) == freedBefore + 2, "the partial frame moved to a buffer of its own")
        try processor.process(buffer: largeReadBuffer(last.dropFirst(100))) { frames.append($0) }
        #expect(largeReadBuffersFreed.load(ordering: .relaxed) == freedBefore + 3)
        #expect(frames.last == .data(messageType: "welcome", payload: .init(repeating: 7, count: 3000)))
        #expect(frames.count == SampleFrames.all.count + 1)
    }

    @Test("The bridge, fed every sample frame in large read buffers cut at every point, hands over the same frames and keeps none of those buffers")
    func theBridgeKeepsNoLargeReadBuffer() throws {
        let stream = SampleFrames.stream
        for cut in stride(from: 1, to: stream.count, by: 7) {
            let handler = RecordingHandler()
            let channel = EmbeddedChannel(handler: ConnectionBridge(handler: handler))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            let freedBefore = largeReadBuffersFreed.load(ordering: .relaxed)
            try channel.writeInbound(largeReadBuffer(stream[..<cut]))
            // The buffer written is gone once the read ends: nothing holds its storage.
            #expect(largeReadBuffersFreed.load(ordering: .relaxed) == freedBefore + 1, "cut at \(cut)")
            try channel.writeInbound(largeReadBuffer(stream[cut...]))
            #expect(largeReadBuffersFreed.load(ordering: .relaxed) == freedBefore + 2, "cut at \(cut)")
            #expect(handler.frames == SampleFrames.all, "cut at \(cut)")
            _ = try channel.finish()
            #expect(handler.closeError == .some(nil), "cut at \(cut)")
        }
    }
}
