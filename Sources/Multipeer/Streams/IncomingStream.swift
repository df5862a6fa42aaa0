import Foundation

/// A byte stream a peer opened to this side, posted as ``EventName/streamOpened``.
///
/// Read its ``chunks`` once, from one task: each chunk read grants the writer credit for as
/// many bytes, so a reader that stops reading holds at most
/// ``SessionConfiguration/streamWindow`` bytes and stops its writer, nothing else. The
/// sequence ends when the writer finishes, and throws ``MultipeerError/Code/streamReset`` when
/// it resets the stream or ``MultipeerError/Code/streamInterrupted`` when the link closes.
/// A stream nobody reads stays open (and counts toward
/// ``SessionConfiguration/maximumStreamsPerLink``) until ``cancel()``.
public struct IncomingStream: Sendable {
    /// The peer writing the stream.
    public let peer: PeerID
    /// The name the writer gave it.
    public var name: String { buffer.name }
    /// The stream's bytes in the pieces they arrived in.
    public var chunks: Chunks { Chunks(buffer: buffer) }

    let buffer: StreamBuffer

    /// Stops reading: the writer's writes throw ``MultipeerError/Code/streamReset``, and what
    /// was not read is dropped.
    public func cancel() {
        buffer.cancel()
    }

    /// The chunks of an ``IncomingStream``, in order.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = Data
        public typealias Failure = MultipeerError
        let buffer: StreamBuffer

        public func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

        /// Reads the chunks.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = Data
            public typealias Failure = MultipeerError
            let buffer: StreamBuffer

            /// The next chunk; nil once the writer finished and everything was read.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(MultipeerError) -> Data? {
                try await buffer.next()
            }

            /// The next chunk; nil once the writer finished and everything was read.
            public mutating func next() async throws(MultipeerError) -> Data? {
                try await buffer.next()
            }
        }
    }
}
