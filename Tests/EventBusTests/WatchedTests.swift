@testable import EventBus
import Testing

@Suite("Waiting on a watched value", .timeLimit(.minutes(1)))
struct WatchedTests {
    @Test("A wait ends when a change meets its condition, with the value that met it")
    func wakesOnChange() async {
        let count = Watched(0)
        async let seen = count.wait(until: { $0 >= 3 }, before: .now + .seconds(600))
        await waitUntilRegistered(count)
        for _ in 0..<3 { count.withLock { $0 += 1 } }
        #expect(await seen == 3)
        #expect(count.waiterCount == 0)
    }

    @Test("A condition met already returns at once")
    func metAlready() async {
        let count = Watched(5)
        let started = ContinuousClock.now
        #expect(await count.wait(until: { $0 == 5 }, before: .now + .seconds(600)) == 5)
        #expect(ContinuousClock.now - started < .seconds(600))
    }

    @Test("A condition never met ends at the deadline with the value then")
    func deadline() async {
        let count = Watched(1)
        let deadline = ContinuousClock.now + .milliseconds(50)
        #expect(await count.wait(until: { $0 > 1 }, before: deadline) == 1)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test("A cancelled wait ends, and a later change finds no one left waiting")
    func cancelled() async {
        let count = Watched(0)
        let waiting = Task { await count.wait(until: { $0 > 0 }, before: .now + .seconds(600)) }
        await waitUntilRegistered(count)
        waiting.cancel()
        #expect(await waiting.value == 0)
        #expect(count.waiterCount == 0)
        let early = Task { await count.wait(until: { $0 > 0 }, before: .now + .seconds(600)) }
        early.cancel()  // most likely before it registers: it must end all the same
        #expect(await early.value == 0)
        #expect(count.waiterCount == 0)
    }

    @Test("Changes that do not meet the condition leave the waiter waiting")
    func unmetChanges() async {
        let word = Watched("")
        async let seen = word.wait(until: { $0 == "done" }, before: .now + .seconds(600))
        await waitUntilRegistered(word)
        for text in ["a", "b"] { word.withLock { $0 = text } }
        #expect(word.waiterCount == 1)
        word.withLock { $0 = "done" }
        #expect(await seen == "done")
    }
}

/// Yields until `watched` has a registered waiter (the test's own wait, started just before).
private func waitUntilRegistered<Value>(_ watched: Watched<Value>) async {
    while watched.waiterCount == 0 { await Task.yield() }
}
