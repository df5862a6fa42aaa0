import Foundation

/// Runs `work` on a thread of its own and awaits its result.
///
/// Swift's cooperative pool has one thread per core, and a detached task runs on that same pool:
/// a key derivation, a blocking read or a wait for another process there stops every other task
/// of the program for as long as it takes (on two cores, two such calls stop them all). Work
/// like that goes here instead; the awaiting task gives its thread back meanwhile.
///
/// ```swift
/// let key = await onOwnThread { expensiveDerivation(password) }
/// ```
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// Like ``onOwnThread(_:)-(()->T)``, for work that throws: its error is rethrown to the caller.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
