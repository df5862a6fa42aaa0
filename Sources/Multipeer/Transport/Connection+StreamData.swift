import Foundation

extension Connection {
    /// Encodes each STREAM_DATA frame with ``FrameCodec`` and ``send(_:)``s it, then calls
    /// `written`: for transports that frame nothing themselves.
    public func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
        let chunk = max(1, chunkLength)
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let next = min(offset + chunk, bytes.endIndex)
            send(FrameCodec.encode(.streamData(id: id, bytes: bytes[offset..<next])))
            offset = next
        }
        written()
    }
}

extension FrameCodec {
    /// The kind byte of a STREAM_DATA frame (`length | kind | stream ID (UInt32) | bytes`), for
    /// transports that frame stream bytes straight into buffers of their own
    /// (``Connection/sendStreamData(id:_:chunkLength:written:)``).
    public static let streamDataKind = FrameKind.streamData.rawValue
}
