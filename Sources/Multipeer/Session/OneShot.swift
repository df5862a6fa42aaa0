import Synchronization

/// A value that is set once and awaited once: the first ``resolve(_:)`` wins, later ones are
/// ignored, and ``wait()`` returns it whether it came before or after the wait began.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        /// The waiter is resumed with nil only by the cancellation of ``waitUnlessCancelled()``.
        case pending(CheckedContinuation<Value?, Never>?)
        case resolved(Value)
    }

    private let state = Mutex(State.pending(nil))

    /// Sets the value unless one was set already; returns whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let (won, waiter): (Bool, CheckedContinuation<Value?, Never>?) = state.withLock { state in
            guard case .pending(let waiter) = state else { return (false, nil) }
            state = .resolved(value)
            return (true, waiter)
        }
        waiter?.resume(returning: value)
        return won
    }

    /// The value if it is set already, without waiting.
    var resolvedValue: Value? {
        state.withLock { state in
            if case .resolved(let value) = state { value } else { nil }
        }
    }

    /// The value, once set. Call at most once (this or ``waitUnlessCancelled()``).
    func wait() async -> Value {
        // Resumed with nil only by a cancellable wait, which this is not.
        await suspend(cancellable: false)!
    }

    /// The value once set, or nil as soon as the calling task is cancelled. Call at most once
    /// (this or ``wait()``).
    func waitUnlessCancelled() async -> Value? {
        await withTaskCancellationHandler {
            await suspend(cancellable: true)
        } onCancel: {
            let waiter: CheckedContinuation<Value?, Never>? = state.withLock { state in
                guard case .pending(let waiter) = state else { return nil }
                state = .pending(nil)
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    private func suspend(cancellable: Bool) async -> Value? {
        await withCheckedContinuation { continuation in
            // Checked under the lock: a cancellation after it finds the waiter stored.
            let ready: Value?? = state.withLock { state in
                switch state {
                case .resolved(let value): return .some(value)
                case .pending:
                    if cancellable && Task.isCancelled { return .some(nil) }
                    state = .pending(continuation)
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
