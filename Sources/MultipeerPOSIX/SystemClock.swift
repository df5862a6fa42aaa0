import Dispatch
import Multipeer
import Synchronization

/// The real clock, as a session keeps it (`Multipeer`'s `SessionClock`): `ContinuousClock`'s
/// time, its instants `ContinuousClock`'s, ticking on a dispatch queue of its own.
///
/// Ticks never come on Swift's cooperative pool: a pool whose few threads are all busy (a key
/// derivation, someone's blocking call) would otherwise hold back heartbeats and deadline
/// checks, and a host would lose players that were never gone. `MultipeerNIO`'s `TCPTransport`
/// gives it to its sessions (`Transport.clock`).
public struct SystemClock: SessionClock {
    /// The real clock.
    public init() {}

    /// Now, by `ContinuousClock`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// `ContinuousClock`'s resolution.
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Waits until `deadline`, as `ContinuousClock` does.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }

    /// Ticks on a dispatch queue of their own, never on Swift's cooperative pool.
    public func startTicking(every interval: Duration, _ tick: @escaping @Sendable (ContinuousClock.Instant) -> Void) -> SessionTicker {
        let timer = DispatchTimer(queue: DispatchQueue(label: "multipeer.session.ticker"))
        timer.start(every: interval) { tick(ContinuousClock.now) }
        return SessionTicker { timer.cancel() }
    }
}

/// A repeating dispatch timer that may be cancelled from any thread.
private final class DispatchTimer: Sendable {
    private let source: Mutex<any DispatchSourceTimer>

    init(queue: DispatchQueue) {
        source = Mutex(DispatchSource.makeTimerSource(queue: queue))
    }

    func start(every interval: Duration, _ handler: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(max(1, nanoseconds))
        source.withLock { source in
            source.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(1))
            source.setEventHandler(handler: handler)
            source.activate()
        }
    }

    func cancel() {
        source.withLock { $0.cancel() }
    }
}
