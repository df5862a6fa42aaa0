import Foundation

/// Checks that blocking work leaves Swift's cooperative pool free: `calls` pieces of work each
/// block until released, and a task on the pool must see all of them under way. Were the work on
/// the pool, every pool thread would be blocked and nothing could see it: a plain thread then
/// releases the work after 20 s, so that the check fails instead of hanging the test run. When
/// the pool is free, nothing is held for longer than it takes the work to start.
public enum PoolFreedom {
    /// Starts `calls` pieces of work with `start`, which must make each call `block()` once where
    /// the blocking work runs; returns whether the pool stayed free, and each call's result.
    public static func check<T: Sendable>(
        calls: Int, start: @escaping @Sendable (_ index: Int, _ block: @escaping @Sendable () -> Void) async -> T
    ) async -> (poolStayedFree: Bool, results: [T]) {
        let started = Locked(0)
        let release = DispatchSemaphore(value: 0)
        let releasedByWatchdog = Locked(false)
        let done = Locked(false)
        Thread {
            Thread.sleep(forTimeInterval: 20)
            guard !done.value else { return }
            releasedByWatchdog.withLock { $0 = true }
            for _ in 0..<calls { release.signal() }
        }.start()
        let block: @Sendable () -> Void = {
            started.withLock { $0 += 1 }
            release.wait()
        }
        let running = (0..<calls).map { index in Task { await start(index, block) } }
        // This task is on the pool: it sees every call blocked only if the calls left it free.
        let allStarted = await eventually(within: .seconds(30)) { started.value == calls }
        done.withLock { $0 = true }
        if !releasedByWatchdog.value { for _ in 0..<calls { release.signal() } }
        var results: [T] = []
        for call in running { results.append(await call.value) }
        return (allStarted && !releasedByWatchdog.value, results)
    }
}
