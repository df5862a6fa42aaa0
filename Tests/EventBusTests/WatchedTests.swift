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

/// ``Watched/read(_:)``: the value seen in place, under the lock, nothing changed.
@Suite("Reading a watched value in place", .timeLimit(.minutes(1)))
struct WatchedReadTests {
    @Test("A read sees the latest change, changes nothing, and wakes no one whose condition the value does not meet")
    func readSeesTheValue() async {
        let watched = Watched([1, 2, 3])
        #expect(watched.read { $0.count } == 3)
        watched.withLock { $0.append(4) }
        #expect(watched.read { $0.last } == 4)
        #expect(watched.value == [1, 2, 3, 4])
        let waiting = Task { await watched.wait(until: { $0.count == 5 }, before: .now + .seconds(30)) }
        await waitUntilRegistered(watched)
        _ = watched.read { $0.count }
        #expect(watched.waiterCount == 1, "a read wakes no one")
        watched.withLock { $0.append(5) }
        #expect(await waiting.value == [1, 2, 3, 4, 5])
    }

    @Test("A read hands the body the watched array itself, not a copy taken out of the lock")
    func readDoesNotCopy() {
        let watched = Watched(Array(repeating: 7, count: 1000))
        let first = watched.read { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        let second = watched.read { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        #expect(first == second)
        // The array is still uniquely the watched value's: a change after reads copies nothing.
        watched.withLock { value in
            let before = value.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            value[0] = 8
            #expect(value.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == before)
        }
    }
}
