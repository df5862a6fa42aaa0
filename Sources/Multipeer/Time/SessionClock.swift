/// The time a ``Session`` keeps: its deadlines (handshakes, invitations, silent peers, the
/// resume window of resources), its heartbeats and its budgets all read this clock, and its
/// deadline checks run on the clock's ticks.
///
/// A session takes the clock of its transport (``Transport/clock``) unless it is given one.
/// Over TCP that is the real clock, `MultipeerPOSIX`'s `SystemClock` (`ContinuousClock`'s time),
/// whose ticks come on a thread of the session's own, so that a cooperative pool busy with other work does not make a host miss
/// its heartbeats and drop its players. A simulated network gives its sessions a clock that moves
/// only when a test moves it, so that a timeout is tested by moving the clock past it, and a test
/// that is not about time passes or fails alike on a quiet machine and a starved one.
///
/// A conforming type keeps `ContinuousClock.Instant` as its instant, so that the instants a
/// session hands out (such as ``Invitation/expires``) have one type whatever clock made them;
/// they are comparable only with the same clock's ``now``.
public protocol SessionClock: Clock where Instant == ContinuousClock.Instant, Duration == Swift.Duration {
    /// Calls `tick` with the time every `interval` until the returned ticker is stopped.
    ///
    /// `tick` must not block for long: a session's deadline checks and heartbeats run in it.
    func startTicking(every interval: Duration, _ tick: @escaping @Sendable (Instant) -> Void) -> SessionTicker
}

extension SessionClock {
    /// Waits until `duration` has passed on this clock (at once for a duration of zero or less).
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration, tolerance: nil)
    }
}

/// The ticks a ``SessionClock/startTicking(every:_:)`` started: ``stop()`` ends them.
public struct SessionTicker: Sendable {
    private let stopTicking: @Sendable () -> Void

    /// A ticker that `stop` ends; `stop` may be called more than once and from any thread.
    public init(stop: @escaping @Sendable () -> Void) {
        stopTicking = stop
    }

    /// Ends the ticks; a tick under way finishes.
    public func stop() {
        stopTicking()
    }
}
