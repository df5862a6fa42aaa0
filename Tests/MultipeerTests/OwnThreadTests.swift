import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import Testing

/// Work handed to ``onOwnThread(_:)`` must never hold one of the cooperative pool's threads.
@Suite("Blocking work on threads of its own", .timeLimit(.minutes(1)))
struct OwnThreadTests {
    @Test("Twice as many blocked calls as the pool has threads, and a task on the pool still runs meanwhile")
    func blockedCallsLeaveThePoolFree() async throws {
        let calls = 2 * ProcessInfo.processInfo.activeProcessorCount
        let (poolStayedFree, results) = await PoolFreedom.check(calls: calls) { index, block in
            await onOwnThread { () -> Int in
                block()
                return index
            }
        }
        #expect(poolStayedFree, "the blocked calls held the pool")
        #expect(results == Array(0..<calls))
    }

    @Test("An error thrown on the thread reaches the caller")
    func errorsAreRethrown() async {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused.self) { try await onOwnThread { () throws -> Int in throw Refused() } }
    }
}
