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
    /// A join storm: every guest but one connects at the same moment, while the one left (the
    /// probe) guesses every 60 ms; measures how long until all are welcomed.
    case storm
    /// A host crash and restart: the guests guess once a second; partway through the host's
    /// connections all drop at once (as when its program is killed) and a new host resumes the
    /// game from its store on the same port; the guests reconnect by themselves, with jitter.
    case restart
}
