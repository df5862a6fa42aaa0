import Synchronization

/// A value that is set once and awaited once: the first ``resolve(_:)`` wins, later ones are
/// ignored, and ``wait()`` returns it whether it came before or after the wait began.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<Value, Never>?)
        case resolved(Value)
    }

    private let state = Mutex(State.pending(nil))

    /// Sets the value unless one was set already; returns whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let (won, waiter): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
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

    /// The value, once set. Call at most once.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                switch state {
                case .resolved(let value): return value
                case .pending: state = .pending(continuation); return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
