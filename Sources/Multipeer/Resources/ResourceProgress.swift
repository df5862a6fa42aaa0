import Synchronization

/// How far a resource transfer has come, in bytes.
public struct ResourceProgress: Sendable, Hashable {
    /// The bytes the receiver holds (on the sending side: the bytes sent, counting what the
    /// receiver already had when an interrupted transfer resumed).
    public var completedBytes: Int64
    /// The resource's size.
    public var totalBytes: Int64

    public init(completedBytes: Int64, totalBytes: Int64) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The part done, from 0 to 1 (1 for an empty resource).
    public var fractionCompleted: Double {
        totalBytes == 0 ? 1 : Double(completedBytes) / Double(totalBytes)
    }
}

/// Keeps a transfer's progress and hands it to every reader of its updates.
final class ProgressReporter: Sendable {
    private struct State {
        var current: ResourceProgress
        var readers: [Int: AsyncStream<ResourceProgress>.Continuation] = [:]
        var nextReader = 0
        var ended = false
    }

    private let state: Mutex<State>

    init(totalBytes: Int64) {
        state = Mutex(State(current: ResourceProgress(completedBytes: 0, totalBytes: totalBytes)))
    }

    var current: ResourceProgress { state.withLock { $0.current } }

    /// Records that `completed` bytes are done and tells every reader.
    func report(_ completed: Int64) {
        let (progress, readers) = state.withLock { state in
            state.current.completedBytes = completed
            return (state.current, Array(state.readers.values))
        }
        for reader in readers { reader.yield(progress) }
    }

    /// Ends every reader's sequence; later readers get the last progress and an end.
    func end() {
        let readers = state.withLock { state in
            state.ended = true
            defer { state.readers = [:] }
            return Array(state.readers.values)
        }
        for reader in readers { reader.finish() }
    }

    /// A sequence of the progress from now on, starting with the current one; a slow reader
    /// sees the newest progress, not every step.
    func updates() -> AsyncStream<ResourceProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: ResourceProgress.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            continuation.yield(state.current)
            if state.ended { return nil }
            state.nextReader += 1
            state.readers[state.nextReader] = continuation
            return state.nextReader
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.readers.removeValue(forKey: id) }
        }
        return stream
    }
}
