/// Turns a stream of bytes, arriving in pieces of any size, into frames.
///
/// A transport without a framing pipeline of its own (the in-memory network) feeds it what it
/// receives; the NIO transport does the same work in a channel handler with the same
/// ``FrameCodec`` calls. After the first error the stream is unusable: close the connection.
public struct FrameDecoder: Sendable {
    /// The largest frame accepted, counting the kind byte and the body.
    public let maximumFrameLength: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var names = MessageTypeNames()

    /// A decoder that refuses frames longer than `maximumFrameLength`.
    public init(maximumFrameLength: Int = WireProtocol.defaultMaximumFrameLength) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// The bytes received but not yet decoded.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex > 0, readIndex >= buffer.count / 2 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil until more bytes arrive.
    /// - Throws: ``MultipeerError/Code/frameTooLarge`` as soon as an oversized length prefix is
    ///   seen, ``MultipeerError/Code/malformedFrame`` for bytes that are not a frame.
    public mutating func nextFrame() throws(MultipeerError) -> Frame? {
        let prefixBytes = WireProtocol.lengthPrefixBytes
        guard bufferedByteCount >= prefixBytes else { return nil }
        let prefix = buffer[readIndex..<readIndex + prefixBytes].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let length = try FrameCodec.frameLength(prefix: prefix, maximum: maximumFrameLength)
        guard bufferedByteCount >= prefixBytes + length else { return nil }
        let start = readIndex + prefixBytes
        readIndex = start + length
        return try buffer.withUnsafeBytes { bytes in
            Result { () throws(MultipeerError) in
                try FrameCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]), names: &names)
            }
        }.get()
    }
}
