import Synchronization

/// The posts of one ``EventName`` as an asynchronous sequence, with a bounded buffer.
///
/// Made by ``EventBus/stream(_:bufferLimit:)``. Iterate it once; it ends when cancelled.
public struct EventStream<Payload: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Payload

    private let stream: AsyncStream<Payload>
    private let continuation: AsyncStream<Payload>.Continuation
    private let drops: DropCounter

    init(stream: AsyncStream<Payload>, continuation: AsyncStream<Payload>.Continuation, drops: DropCounter) {
        self.stream = stream
        self.continuation = continuation
        self.drops = drops
    }

    /// How many events were dropped because the buffer was full when they were posted.
    public var droppedCount: Int { drops.value }

    /// Ends the subscription: the bus forgets it and iteration finishes after the events
    /// already buffered.
    public func cancel() {
        continuation.finish()
    }

    public func makeAsyncIterator() -> AsyncStream<Payload>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// Counts events that a full stream buffer could not take.
final class DropCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() {
        count.add(1, ordering: .relaxed)
    }

    var value: Int { count.load(ordering: .relaxed) }
}
