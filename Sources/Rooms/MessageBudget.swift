/// One budget for every message a guest sends, whatever it is: guesses, chat, renames, sync
/// requests, and messages the host cannot use (of an unknown type, undecodable, oversized).
///
/// Messages over the budget are ignored unread. A guest that stays over it, with refusals in
/// every second for `cutOffAfter`, is cut off: the host disconnects it once, and ignores what
/// it still sends before it is gone. A single burst (a pasted page, a script's 300 guesses) is
/// refused in part, never cut off.
public struct MessageBudget: Sendable {
    /// What the budget says to one message.
    public enum Decision: Sendable, Hashable {
        /// Within the budget: go ahead.
        case allowed
        /// Over the budget: ignore the message.
        case refused
        /// Over the budget for too long: disconnect the guest (said once per guest).
        case cutOff
    }

    private var messages: Throttle
    private let cutOffAfter: Duration
    /// When the current run of refusals began, and the latest refusal of it.
    private var streak: (start: ContinuousClock.Instant, latest: ContinuousClock.Instant)?
    private var isCutOff = false

    /// A budget of `perSecond` messages on average, `burst` at once, that cuts off a guest
    /// refused at least once a second for `cutOffAfter`.
    public init(perSecond: Double, burst: Double, cutOffAfter: Duration) {
        messages = Throttle(rate: perSecond, burst: burst)
        self.cutOffAfter = cutOffAfter
    }

    /// Charges one message at `now`.
    public mutating func charge(at now: ContinuousClock.Instant) -> Decision {
        if isCutOff { return .refused }
        if messages.admit(at: now) == .allowed { return .allowed }
        if let streak, now - streak.latest <= .seconds(1) {
            self.streak = (streak.start, now)
        } else {
            streak = (now, now)
        }
        guard let streak, now - streak.start >= cutOffAfter else { return .refused }
        isCutOff = true
        return .cutOff
    }
}
