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

/// A small seeded generator (SplitMix64), so random tests replay the same inputs every run.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
