import Foundation
@testable import MultipeerNIO
import Multipeer
import NIOCore
import Testing

/// The transport frames a stream's bytes straight into one buffer; the bytes must be exactly
/// those of ``FrameCodec`` encoding each STREAM_DATA frame in turn, which WirePinTests pin.
@Suite("Stream data framed into one buffer", .timeLimit(.minutes(1)))
struct StreamDataFramesTests {
    private func expected(id: UInt32, _ bytes: Data, chunkLength: Int) -> [UInt8] {
        var frames: [UInt8] = []
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let next = min(offset + chunkLength, bytes.endIndex)
            frames += FrameCodec.encode(.streamData(id: id, bytes: bytes[offset..<next])).bytes
            offset = next
        }
        return frames
    }

    @Test("The same bytes as FrameCodec, frame by frame, for runs shorter than, equal to and longer than a chunk, and for a slice")
    func sameBytesAsTheCodec() {
        let payload = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let cases: [(UInt32, Data, Int)] = [
            (1, payload.prefix(1), 16_375), (2, payload.prefix(16_375), 16_375), (3, payload, 16_375),
            (4, payload.dropFirst(123).prefix(40_000), 16_375), (0xFFFF_FFFE, payload.prefix(10), 3),
        ]
        for (id, bytes, chunk) in cases {
            let buffer = StreamDataFrames.encode(id: id, Data(bytes), chunkLength: chunk)
            #expect(Array(buffer.readableBytesView) == expected(id: id, Data(bytes), chunkLength: chunk), "stream \(id)")
            let sliced = StreamDataFrames.encode(id: id, bytes, chunkLength: chunk)
            #expect(Array(sliced.readableBytesView) == expected(id: id, Data(bytes), chunkLength: chunk), "stream \(id), a slice")
        }
    }

    @Test("No bytes, no frame")
    func nothingForNothing() {
        #expect(StreamDataFrames.encode(id: 1, Data(), chunkLength: 16_375).readableBytes == 0)
    }

    @Test("A full chunk and its header fill one TLS record exactly")
    func oneRecordAFrame() {
        let chunk = SessionConfiguration().streamChunkLength
        let buffer = StreamDataFrames.encode(id: 1, Data(count: chunk * 3), chunkLength: chunk)
        #expect(buffer.readableBytes == 3 * 16_384)
    }
}
