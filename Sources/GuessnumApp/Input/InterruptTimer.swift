/// Ctrl-C on an empty line, as shells and REPLs take it: the first one says how to leave, a
/// second one within ``window`` leaves.
struct InterruptTimer: Sendable {
    /// How soon a second Ctrl-C must follow the first to leave.
    static let window: Duration = .seconds(2)

    private var last: ContinuousClock.Instant?

    /// Takes in a Ctrl-C at `now`; returns whether it is the second within the window (leave).
    /// A Ctrl-C that only cleared a half-typed line neither counts nor leaves.
    mutating func interrupt(clearedText: Bool, at now: ContinuousClock.Instant = .now) -> Bool {
        guard !clearedText else { return false }
        if let last, now - last <= Self.window {
            self.last = nil
            return true
        }
        last = now
        return false
    }
}
