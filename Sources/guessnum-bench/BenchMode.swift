import ArgumentParser

/// How the simulated guests guess.
enum BenchMode: String, ExpressibleByArgument, Codable, Sendable, CaseIterable {
    /// Each guest guesses again as soon as its verdict arrives.
    case closed
    /// Each guest guesses once a second.
    case paced
    /// No guesses: the host broadcasts as fast as the guests read, measured against the same
    /// number of raw socket writes.
    case fanout
}
