import Synchronization

/// A queue of signals for one waiting task: others post from any thread, the owner takes them
/// in order, waiting when there are none. Used by resource transfers for answers from the
/// peer, link changes and deadlines.
final class Mailbox<Element: Sendable>: Sendable {
    private struct State {
        var queue: [Element] = []
        var waiter: CheckedContinuation<Element, Never>?
    }

    private let state = Mutex(State())

    /// Adds `element`, handing it straight to the owner when it is waiting.
    func post(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.queue.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// Posts `element` once `delay` has passed on `clock`, unless the returned task is cancelled
    /// first (a deadline for the owner's wait).
    func post(_ element: Element, after delay: Duration, on clock: any SessionClock) -> Task<Void, Never> {
        let deadline = clock.now + delay
        return Task {
            guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
            self.post(element)
        }
    }

    /// The oldest element not taken yet, if there is one, without waiting.
    func poll() -> Element? {
        state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
    }

    /// The oldest element not taken yet, waiting for one; `cancelled` when the waiting task is
    /// cancelled.
    func next(orOnCancel cancelled: Element) async -> Element {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element, Never>) in
                let ready = state.withLock { state -> Element? in
                    if !state.queue.isEmpty { return state.queue.removeFirst() }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            post(cancelled)
        }
    }
}
