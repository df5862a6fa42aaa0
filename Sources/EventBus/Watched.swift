import Synchronization

/// A value under a lock that tasks can wait on: ``wait(until:before:)`` returns as soon as a
/// change made through ``withLock(_:)`` leaves the value meeting a condition, or at a deadline,
/// with no polling in between.
///
/// ```swift
/// let answered = Watched(0)
/// // a verdict arrives, on another thread:
/// answered.withLock { $0 += 1 }
/// // meanwhile:
/// let count = await answered.wait(until: { $0 > 0 }, before: .now + .seconds(2))
/// ```
///
/// Conditions run under the lock, on the thread that made the change: keep them short, and never
/// touch the same `Watched` from one.
public final class Watched<Value: Sendable>: Sendable {
    @usableFromInline struct Waiter {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    @usableFromInline struct State {
        @usableFromInline var value: Value
        var waiters: [Int: Waiter] = [:]
        /// Waits begun but not registered yet.
        var unregistered: Set<Int> = []
        /// Waits cancelled before they were registered: they end as soon as they try.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    @usableFromInline let state: Mutex<State>
    /// How many waits are registered (changed under the lock): a change with none walks nothing.
    /// Kept outside the generic state, whose every access in unspecialized code (a room host
    /// across modules) costs a metadata look-up.
    @usableFromInline let registered = Atomic<Int>(0)

    /// A watched `value`.
    public init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    /// The value now.
    public var value: Value { state.withLock { $0.value } }

    /// Reads the value under the lock, in place: `body` sees it without a copy being taken out
    /// of the lock. Read this way, a large value whose parts are shared storage (a room's table
    /// of players) is never copied by a change on another thread, which ``value``'s copy, alive
    /// a moment after the lock is released, can cause: that change must then copy every
    /// dictionary it touches. Nothing changes and no waiter is woken.
    @inlinable
    public func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try state.withLock { try body($0.value) }
    }

    /// How many waits are registered and not woken (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Reads or changes the value under the lock; waiters whose condition the value then meets
    /// wake (after the lock is released). Inlinable, so that a caller's own type is known to it:
    /// unspecialized, every change paid for generic look-ups of the value's type.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        var woken: [CheckedContinuation<Void, Never>] = []
        defer { for continuation in woken { continuation.resume() } }
        return try state.withLock { state in
            // Most changes have no one waiting: even asking the generic dictionary of waiters
            // whether it is empty costs metadata look-ups per change (seen on the guess's path).
            defer { if registered.load(ordering: .relaxed) > 0 { woken = wake(&state) } }
            return try body(&state.value)
        }
    }

    /// Removes the waiters whose condition the value meets, under the lock; their continuations.
    @usableFromInline func wake(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        var woken: [CheckedContinuation<Void, Never>] = []
        for (id, waiter) in state.waiters where waiter.condition(state.value) {
            woken.append(waiter.continuation)
            state.waiters[id] = nil
        }
        registered.store(state.waiters.count, ordering: .relaxed)
        return woken
    }

    /// Waits until the value meets `condition` (at once if it does now) or `deadline` passes, or
    /// the task is cancelled; the value then, whichever it was.
    @discardableResult
    public func wait(until condition: @escaping @Sendable (Value) -> Bool, before deadline: ContinuousClock.Instant) async -> Value {
        if condition(value) { return value }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForChange(until: condition) }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
        return value
    }

    private func waitForChange(until condition: @escaping @Sendable (Value) -> Bool) async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            state.unregistered.insert(state.nextID)
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    state.unregistered.remove(id)
                    if state.cancelled.remove(id) != nil || condition(state.value) { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    registered.store(state.waiters.count, ordering: .relaxed)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let waiter = state.waiters.removeValue(forKey: id) {
                    registered.store(state.waiters.count, ordering: .relaxed)
                    return waiter
                }
                if state.unregistered.remove(id) != nil { state.cancelled.insert(id) }
                return nil
            }
            waiter?.continuation.resume()
        }
    }
}
