import Multipeer
import Synchronization

/// A clock that moves only when it is told to (``advance(by:)``), for tests: a session on it
/// never finds a deadline passed because the machine was busy, and a test of a deadline moves
/// the clock past it and sees the outcome at once, in microseconds of wall time.
///
/// Its ticks (``startTicking(every:_:)``) run on the thread that advances the clock, at their
/// moments, in order; its sleepers wake when the clock reaches their moment. ``now`` starts at
/// the real clock's reading when the clock is made, so its instants have the real clock's type,
/// but they are to be compared only with this clock's own ``now``.
///
/// (swift-nio's `EmbeddedEventLoop.advanceTime(by:)` is the model.)
public final class ManualClock: SessionClock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Ticking {
        let interval: Duration
        var next: Instant
        let tick: @Sendable (Instant) -> Void
    }

    private struct State {
        var now: Instant
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var tickers: [Int: Ticking] = [:]

        /// The earliest moment at which something is due, if any is.
        var nextDeadline: Instant? {
            let sleeper = sleepers.values.map(\.deadline).min()
            let ticker = tickers.values.map(\.next).min()
            switch (sleeper, ticker) {
            case (let a?, let b?): return min(a, b)
            case (let a?, nil): return a
            case (nil, let b?): return b
            case (nil, nil): return nil
            }
        }
    }

    private let state: Mutex<State>

    /// A clock that stands at the real clock's present until it is moved.
    public init() {
        state = Mutex(State(now: .now))
    }

    public var now: Instant { state.withLock { $0.now } }

    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock now: a test that moves the clock for a sleeper
    /// waits for it to be asleep first, or the sleep starts after the move.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest moment at which a sleeper wakes or a tick is due, if any.
    public var nextDeadline: Instant? { state.withLock { $0.nextDeadline } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    public func startTicking(every interval: Duration, _ tick: @escaping @Sendable (Instant) -> Void) -> SessionTicker {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.tickers[state.nextID] = Ticking(interval: max(interval, .nanoseconds(1)), next: state.now + interval, tick: tick)
            return state.nextID
        }
        return SessionTicker { [weak self] in
            _ = self?.state.withLock { $0.tickers.removeValue(forKey: id) }
        }
    }

    /// Moves the clock forward by `duration`, stopping at every moment when something is due:
    /// there, the ticks due run (on this thread, in order) and the sleepers due are woken. Returns
    /// once the clock stands at its new time; the woken sleepers then run on their own.
    public func advance(by duration: Duration) {
        let target = now + duration
        while step(toward: target) {}
    }

    /// Moves the clock to the next moment when something is due, if that comes by `target`, and
    /// runs what is due there; otherwise to `target`. Returns whether it stopped short of
    /// `target` (there may be more to run before it).
    @discardableResult
    public func step(toward target: Instant) -> Bool {
        let (moment, ticks, woken) = state.withLock { state -> (Instant, [@Sendable (Instant) -> Void], [CheckedContinuation<Void, any Error>]) in
            guard let due = state.nextDeadline, due <= target else {
                state.now = max(state.now, target)
                return (state.now, [], [])
            }
            state.now = max(state.now, due)
            var ticks: [@Sendable (Instant) -> Void] = []
            for (id, ticking) in state.tickers.sorted(by: { $0.key < $1.key }) where ticking.next <= state.now {
                ticks.append(ticking.tick)
                state.tickers[id]?.next = ticking.next + ticking.interval
            }
            var woken: [CheckedContinuation<Void, any Error>] = []
            for (id, sleeper) in state.sleepers where sleeper.deadline <= state.now {
                woken.append(sleeper.continuation)
                state.sleepers[id] = nil
            }
            return (state.now, ticks, woken)
        }
        for tick in ticks { tick(moment) }
        for continuation in woken { continuation.resume() }
        return moment < target
    }
}
