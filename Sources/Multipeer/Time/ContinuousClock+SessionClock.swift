import Dispatch
import Synchronization

/// The real clock: what a session keeps time by unless it is given another.
extension ContinuousClock: SessionClock {
    /// Ticks on a dispatch queue of their own, never on Swift's cooperative pool: a pool whose
    /// few threads are all busy (a key derivation, someone's blocking call) would otherwise hold
    /// back heartbeats and deadline checks, and a host would lose players that were never gone.
    public func startTicking(every interval: Duration, _ tick: @escaping @Sendable (Instant) -> Void) -> SessionTicker {
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
