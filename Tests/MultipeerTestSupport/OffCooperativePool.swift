import Multipeer
import MultipeerPOSIX

/// Runs blocking `work` (a socket read, a wait) on a thread of its own and awaits its result, so
/// that it does not hold one of the cooperative pool's few threads: with one thread per core, two
/// tests blocked in reads would stall every other test's tasks. (Multipeer's ``onOwnThread(_:)``.)
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await onOwnThread(work)
}

/// Like ``offCooperativePool(_:)-(()->T)``, for work that throws.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread(work)
}
