/// Runs `body`, then `tearDown`, whether `body` returns or throws (a failed `#require`
/// included): the one shape behind `withGame`, `withSessions`, `withTwoPeers`, `withListener`
/// and `LoopbackPair.with`, so that nothing a test starts outlives it.
public func withTearDown<Result>(
    _ body: () async throws -> Result, tearDown: () async -> Void
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        await tearDown()
        throw error
    }
    await tearDown()
    return result
}
