import Foundation

/// Holds every thread of Swift's cooperative pool while a piece of async work runs on a thread
/// of its own, to show that the work never needs the pool: were it to run there, it could not
/// start until the hold ends. The hold ends when the work is done, or after `watchdog` whatever
/// happens (so a failure fails instead of hanging the test run); the pool is held for no
/// longer than the work takes.
public enum PoolHold {
    /// Whether `work` finished while every pool thread was held: its result, or nil when the
    /// watchdog had to end the hold (the work needed the pool).
    public static func run<T: Sendable>(
        watchdog: Duration = .seconds(20), _ work: @escaping @Sendable () async -> T
    ) async -> T? {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let held = Locked(0)
        let finished = Locked<T?>(nil)
        let endHold: @Sendable () -> Void = { for _ in 0..<threads { release.signal() } }
        let watchdogFired = Locked(false)
        let hold = Locked(true)
        Thread {
            Thread.sleep(forTimeInterval: Double(watchdog.components.seconds))
            guard hold.withLock({ holding in defer { holding = false }; return holding }) else { return }
            watchdogFired.withLock { $0 = true }
            endHold()
        }.start()
        let holders = (0..<threads).map { _ in Task { block(until: release, counting: held) } }
        let executor = OwnThreadExecutor()
        defer { executor.stop() }
        let worker = Task(executorPreference: executor) {
            // Starts only once every pool thread is held (this thread is not one of them).
            waitUntil { held.value >= threads || !hold.value }
            let result = await work()
            finished.withLock { $0 = result }
            if hold.withLock({ holding in defer { holding = false }; return holding }) { endHold() }
        }
        await worker.value
        for holder in holders { await holder.value }
        return watchdogFired.value ? nil : finished.value
    }

    /// Polls `condition` on this thread (not one of the pool's), every millisecond.
    private static func waitUntil(_ condition: () -> Bool) {
        while !condition() { Thread.sleep(forTimeInterval: 0.001) }
    }

    private static func block(until release: DispatchSemaphore, counting held: Locked<Int>) {
        held.withLock { $0 += 1 }
        release.wait()
    }
}

/// A task executor with one thread of its own: tasks that prefer it run there, not on the
/// cooperative pool.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs queued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
