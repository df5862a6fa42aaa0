import EventBus
import Synchronization
import Testing

extension EventName where Payload == Int {
    static let counted = EventName("counted")
}

extension EventName where Payload == String {
    static let said = EventName("said")
    static let countedAsText = EventName("counted")
}

final class Collected<Value: Sendable>: Sendable {
    let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// The first `count` values of `stream`, or what arrived before `timeout` passed: a regression
/// that stops a stream ends the test with a short list instead of hanging the suite.
func firstValues<Value: Sendable>(
    _ count: Int, of stream: EventStream<Value>, within timeout: Duration = .seconds(30)
) async -> [Value] {
    await withTaskGroup(of: [Value]?.self) { group in
        group.addTask {
            var received: [Value] = []
            for await value in stream {
                received.append(value)
                if received.count == count { break }
            }
            return received
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        var result: [Value] = []
        if let first = await group.next() { result = first ?? [] }
        stream.cancel()
        group.cancelAll()
        return result
    }
}

/// Whether `task` finished within `timeout` (it is not cancelled either way, and a task that
/// never finishes is left behind rather than waited for).
func finishes(_ task: Task<Void, Never>, within timeout: Duration = .seconds(30)) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer = FirstAnswer(continuation)
        Task {
            await task.value
            answer.give(true)
        }
        Task {
            try? await Task.sleep(for: timeout)
            answer.give(false)
        }
    }
}

/// Resumes a continuation with the first answer given, ignoring later ones.
final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Bool) {
        continuation.withLock { pending in
            pending?.resume(returning: answer)
            pending = nil
        }
    }
}

@Suite("The event bus", .timeLimit(.minutes(1)))
struct EventBusTests {
    @Test("A post reaches every observer of its name, synchronously and in subscription order")
    func fanOut() {
        let bus = EventBus()
        let order = Collected<String>()
        let first = bus.observe(.counted) { order.append("first \($0)") }
        let second = bus.observe(.counted) { order.append("second \($0)") }
        let third = bus.observe(.counted) { order.append("third \($0)") }
        bus.post(.counted, 1)
        #expect(order.all == ["first 1", "second 1", "third 1"])
        withExtendedLifetime((first, second, third)) {}
    }

    @Test("Observers see only their own name, and names typed differently never mix")
    func namesAreSeparate() {
        let bus = EventBus()
        let numbers = Collected<Int>()
        let texts = Collected<String>()
        let a = bus.observe(.counted) { numbers.append($0) }
        let b = bus.observe(.countedAsText) { texts.append($0) }
        bus.post(.counted, 7)
        bus.post(.said, "hello")
        bus.post(.countedAsText, "seven")
        #expect(numbers.all == [7])
        #expect(texts.all == ["seven"])
        withExtendedLifetime((a, b)) {}
    }

    @Test("Names of one payload type and one length stay apart (they share a hash)")
    func sameLengthNames() {
        let bus = EventBus()
        let names = ["abc", "abd", "xyz", "cba"].map { EventName<Int>($0) }
        let seen = names.map { _ in Collected<Int>() }
        let observations = zip(names, seen).map { name, log in bus.observe(name) { log.append($0) } }
        for (index, name) in names.enumerated() { bus.post(name, index) }
        #expect(seen.map(\.all) == [[0], [1], [2], [3]])
        #expect(names.map { bus.observerCount(of: $0) } == [1, 1, 1, 1])
        withExtendedLifetime(observations) {}
    }

    @Test("Cancelling or releasing an observation ends it")
    func cancellation() {
        let bus = EventBus()
        let seen = Collected<Int>()
        let kept = bus.observe(.counted) { seen.append($0) }
        var released: EventObservation? = bus.observe(.counted) { seen.append($0 * 100) }
        bus.post(.counted, 1)
        released = nil
        bus.post(.counted, 2)
        kept.cancel()
        #expect(kept.isCancelled)
        bus.post(.counted, 3)
        #expect(seen.all == [1, 100, 2])
        #expect(bus.observerCount(of: .counted) == 0)
        _ = released
    }

    @Test("A handler may post, subscribe and cancel without deadlock")
    func reentrancy() {
        let bus = EventBus()
        let seen = Collected<String>()
        let counted = Collected<Int>()
        let inner = Mutex<EventObservation?>(nil)
        let outer = bus.observe(.counted) { value in
            counted.append(value)
            if value < 3 { bus.post(.counted, value + 1) }
            inner.withLock { $0?.cancel(); $0 = bus.observe(.said) { seen.append($0) } }
        }
        bus.post(.counted, 1)
        #expect(counted.all == [1, 2, 3], "each nested post reached the handler before the outer post returned")
        bus.post(.said, "nested")
        #expect(seen.all == ["nested"], "an observation made inside a handler hears later posts, once")
        outer.cancel()
        bus.post(.counted, 10)
        #expect(counted.all == [1, 2, 3], "a cancelled observation hears nothing more")
        inner.withLock { $0?.cancel() }
        #expect(bus.observerCount(of: .said) == 0)
    }

    @Test("Posting from many threads at once delivers every event exactly once")
    func concurrentPosts() async {
        let bus = EventBus()
        let total = Atomic<Int>(0)
        let observations = (0..<4).map { _ in bus.observe(.counted) { total.add($0, ordering: .relaxed) } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1000 { bus.post(.counted, 1) } }
            }
        }
        #expect(total.load(ordering: .relaxed) == 4 * 8 * 1000)
        withExtendedLifetime(observations) {}
    }

    @Test("A stream delivers posts in order to an async consumer")
    func stream() async {
        let bus = EventBus()
        let stream = bus.stream(.counted)
        for value in 1...5 { bus.post(.counted, value) }
        #expect(await firstValues(5, of: stream) == [1, 2, 3, 4, 5])
    }

    @Test("A full stream buffer drops newer events and counts them")
    func boundedBuffer() async {
        let bus = EventBus()
        let stream = bus.stream(.counted, bufferLimit: 3)
        for value in 1...10 { bus.post(.counted, value) }
        #expect(stream.droppedCount == 7)
        stream.cancel()
        #expect(await firstValues(4, of: stream) == [1, 2, 3], "the buffered events, then the end")
    }

    @Test("A stream's subscription ends when it is cancelled or released")
    func streamEnds() async {
        let bus = EventBus()
        let stream = bus.stream(.counted)
        #expect(bus.observerCount(of: .counted) == 1)
        stream.cancel()
        #expect(bus.observerCount(of: .counted) == 0)
        do {
            let released = bus.stream(.counted)
            #expect(bus.observerCount(of: .counted) == 1)
            _ = released
        }
        #expect(bus.observerCount(of: .counted) == 0)
    }

    @Test("A consumer task that is cancelled ends its subscription")
    func consumerCancelled() async {
        let bus = EventBus()
        let stream = bus.stream(.counted)
        let consumer = Task { for await _ in stream {} }
        consumer.cancel()
        #expect(await finishes(consumer), "the consumer's loop ended")
        #expect(bus.observerCount(of: .counted) == 0)
    }

    @Test("An observation bag ends all its observations at once, and only once")
    func observationBag() {
        let bus = EventBus()
        let heard = Collected<String>()
        let bag = ObservationBag()
        bag.add(bus.observe(.counted) { heard.append("counted \($0)") })
        bag.add(contentsOf: [bus.observe(.said) { heard.append("said \($0)") }, bus.observe(.counted) { _ in }])
        #expect(bag.count == 3)
        bus.post(.counted, 1)
        bus.post(.said, "hi")
        bag.cancelAll()
        #expect(bag.count == 0)
        #expect(bus.observerCount(of: .counted) == 0 && bus.observerCount(of: .said) == 0)
        bus.post(.counted, 2)
        bag.cancelAll()
        #expect(heard.all == ["counted 1", "said hi"])
    }
}
