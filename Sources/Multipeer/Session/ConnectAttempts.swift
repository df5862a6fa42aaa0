import Synchronization

/// The owner of one invitation's connection attempts (one task per address): it keeps their
/// handles so that the invitation's caller, cancelled, cancels every attempt still under way.
final class ConnectAttempts: Sendable {
    private let state = Mutex<(tasks: [Task<Void, Never>], isCancelled: Bool)>(([], false))

    /// Starts `attempt` as a task this owner keeps (cancelled at once if the owner already is).
    func start(_ attempt: @escaping @Sendable () async -> Void) {
        let task = Task { await attempt() }
        let cancelled = state.withLock { state in
            if !state.isCancelled { state.tasks.append(task) }
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Cancels every attempt, and those started from now on.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.isCancelled = true
            defer { state.tasks = [] }
            return state.tasks
        }
        for task in tasks { task.cancel() }
    }
}
