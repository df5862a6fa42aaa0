/// Whether the server has been failing, so that a failure is told once per streak and the
/// recovery once: not at every poll or refresh.
struct FailureStreak: Sendable {
    private(set) var isFailing = false

    /// A call failed: whether it is the first of a streak.
    mutating func failed() -> Bool {
        defer { isFailing = true }
        return !isFailing
    }

    /// A call succeeded: whether it ends a streak.
    mutating func succeeded() -> Bool {
        defer { isFailing = false }
        return isFailing
    }
}
