/// A token bucket: at most ``rate`` actions a second on average, with bursts of up to
/// ``burst``, and at most one warning a second for what it refuses.
///
/// A value with no timer of its own: it refills from the instants it is given, so a host can
/// keep one per guest at no cost while the guest is quiet.
public struct Throttle: Sendable, Hashable {
    /// What the throttle says to one action.
    public enum Decision: Sendable, Hashable {
        /// Go ahead.
        case allowed
        /// Not now; `warn` is true at most once a second, when the actor should be told.
        case refused(warn: Bool)
    }

    /// Actions a second, on average.
    public let rate: Double
    /// Actions allowed at once after a quiet spell.
    public let burst: Double
    /// The shortest time between two warnings.
    public let warningInterval: Duration

    private var tokens: Double
    private var updated: ContinuousClock.Instant?
    private var lastWarning: ContinuousClock.Instant?

    /// A full bucket of `burst` tokens, refilled at `rate` a second.
    public init(rate: Double, burst: Double, warningInterval: Duration = .seconds(1)) {
        self.rate = rate
        self.burst = max(1, burst)
        self.warningInterval = warningInterval
        tokens = max(1, burst)
    }

    /// Takes one token if there is one at `now`.
    public mutating func admit(at now: ContinuousClock.Instant) -> Decision {
        if let updated {
            if now > updated {
                tokens = min(burst, tokens + (now - updated).seconds * rate)
                self.updated = now
            }
        } else {
            updated = now
        }
        if tokens >= 1 {
            tokens -= 1
            return .allowed
        }
        if let lastWarning, now - lastWarning < warningInterval { return .refused(warn: false) }
        lastWarning = now
        return .refused(warn: true)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        // One conversion of the attoseconds, not two 128-bit divisions (`components`, read
        // twice): every move and message charges a throttle with it.
        self / .seconds(1)
    }
}

extension Throttle {
    /// A room's usual throttle of each player's moves: 10 a second, 5 at once.
    public static var moves: Throttle { Throttle(rate: 10, burst: 5) }
}
