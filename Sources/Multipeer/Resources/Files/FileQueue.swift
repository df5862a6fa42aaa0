/// A serial queue of file work (reads, writes, hashing, syncs) on its disk's own thread
/// (``ResourceFiles/makeWorkQueue(label:)``), outside Swift's cooperative pool, which has one
/// thread per core: a slow disk stalls the transfer that waits for it, never the program's
/// other tasks.
final class FileQueue: Sendable {
    private let queue: any FileWorkQueue

    init(_ files: any ResourceFiles, label: String) {
        queue = files.makeWorkQueue(label: label)
    }

    /// Runs `work` on the queue and returns what it returns.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws(MultipeerError) -> T) async throws(MultipeerError) -> T {
        let result: Result<T, MultipeerError> = await withCheckedContinuation { continuation in
            queue.enqueue { continuation.resume(returning: Result { () throws(MultipeerError) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Runs `work` on the queue and returns what it hands to its `reply`, which it calls once,
    /// there or later from any thread (when it asks another thread for the rest).
    func runReplying<T: Sendable>(_ work: @escaping @Sendable (_ reply: @escaping @Sendable (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            queue.enqueue { work { continuation.resume(returning: $0) } }
        }
    }
}
