extension Task where Failure == any Error {
    /// The task's value, or a ``TestFailure`` once `bound` of wall time has passed without it
    /// (the task is then cancelled): a bound that only catches a hang, so that a deadline that
    /// never fires fails its test with a sentence instead of holding the run.
    public func value(within bound: Duration = .seconds(30), _ what: String) async throws -> Success {
        let expired = Locked(false)
        let timer = Task<Void, Never> {
            guard (try? await Task<Never, Never>.sleep(for: bound)) != nil else { return }
            expired.withLock { $0 = true }
            self.cancel()
        }
        defer { timer.cancel() }
        let result = await self.result
        if expired.value { throw TestFailure("\(what): not done within \(bound) of wall time") }
        return try result.get()
    }
}
