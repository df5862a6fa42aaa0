import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// Work handed to ``onOwnThread(_:)`` must never hold one of the cooperative pool's threads.
@Suite("Blocking work on threads of its own", .timeLimit(.minutes(1)))
struct OwnThreadTests {
    @Test("Twice as many blocked calls as the pool has threads, and a task on the pool still runs meanwhile")
    func blockedCallsLeaveThePoolFree() async throws {
        let calls = 2 * ProcessInfo.processInfo.activeProcessorCount
        let started = Locked(0)
        let release = DispatchSemaphore(value: 0)
        // Were the calls on the pool, the pool would be stuck and nothing here would ever go on:
        // this plain thread lets them go after 20 s whatever happens, so the test fails instead
        // of hanging the run.
        let releasedByWatchdog = Locked(false)
        let done = Locked(false)
        Thread {
            Thread.sleep(forTimeInterval: 20)
            guard !done.value else { return }
            releasedByWatchdog.withLock { $0 = true }
            for _ in 0..<calls { release.signal() }
        }.start()

        let blocked = (0..<calls).map { index in
            Task {
                await onOwnThread { () -> Int in
                    started.withLock { $0 += 1 }
                    release.wait()
                    return index
                }
            }
        }
        // Every call blocks at once, and this task, on the pool, sees it happen.
        let allStarted = await eventually(within: .seconds(30)) { started.value == calls }
        done.withLock { $0 = true }
        if !releasedByWatchdog.value { for _ in 0..<calls { release.signal() } }
        var results: [Int] = []
        for call in blocked { results.append(await call.value) }

        #expect(allStarted && !releasedByWatchdog.value, "\(started.value) of \(calls) calls started while the pool still ran")
        #expect(results == Array(0..<calls))
    }

    @Test("An error thrown on the thread reaches the caller")
    func errorsAreRethrown() async {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused.self) { try await onOwnThread { () throws -> Int in throw Refused() } }
    }
}
