import Foundation
import Multipeer
import NIOCore

/// Frames a run of a stream's bytes as STREAM_DATA frames (`length | kind | stream ID | bytes`,
/// `docs/PROTOCOL.md` §3.8) straight into one `ByteBuffer`: one allocation and one copy for the
/// whole run, where encoding each frame on its own costs an array and a buffer, and two copies,
/// per frame. The bytes are those ``Multipeer/FrameCodec/encode(_:)`` writes for each frame in
/// turn.
enum StreamDataFrames {
    /// The frames of stream `id` carrying `bytes`, `chunkLength` bytes to a frame (the last may
    /// be shorter); no frame for no bytes.
    static func encode(id: UInt32, _ bytes: Data, chunkLength: Int, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        let chunk = max(1, chunkLength)
        let frames = (bytes.count + chunk - 1) / chunk
        let headerBytes = FrameCodec.streamDataOverhead
        var buffer = allocator.buffer(capacity: bytes.count + frames * headerBytes)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = min(chunk, raw.count - offset)
                buffer.writeInteger(UInt32(headerBytes - WireProtocol.lengthPrefixBytes + count))
                buffer.writeInteger(FrameCodec.streamDataKind)
                buffer.writeInteger(id)
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)]))
                offset += count
            }
        }
        return buffer
    }
}
