import Dispatch
import Synchronization

/// The deliveries an ``InMemoryNetwork``'s connections have queued and not yet handled, so that
/// a test can wait until the network is quiet (``InMemoryNetwork/settle()``).
final class InMemoryDeliveries: Sendable {
    private let pending = Atomic<Int>(0)

    /// Runs `work` on `queue`, counted until it has run.
    func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        pending.add(1, ordering: .relaxed)
        queue.async {
            work()
            self.pending.subtract(1, ordering: .releasing)
        }
    }

    /// Returns once no delivery is queued or running. Work queued by a delivery is counted before
    /// that delivery ends, so a chain of deliveries is waited for whole.
    func drained() async {
        var polls = 0
        while pending.load(ordering: .acquiring) > 0 {
            polls += 1
            // Yield first (the deliveries run on dispatch queues, not on the pool); poll slower if
            // they take long, as on a busy machine.
            if polls < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }
}
