import Foundation

/// Guests a private game turned away for its password, from one network (a guest that gave no
/// password is not one: it is asked for the password, the first step of a join by address), as the host's screen
/// is told of them (`EventName.passwordRefusals`): the first at once, then at most one
/// summary a minute with the count (see ``PasswordRefusalTally``), so a flood of guesses cannot
/// flood the host's screen.
public struct PasswordRefusals: Sendable, Hashable {
    /// Why a guest was turned away.
    public enum Reason: Sendable, Hashable {
        /// Its password was wrong (or its exchange malformed).
        case wrong
        /// Its network (or everyone) had too many wrong passwords lately.
        case tooMany
    }

    /// The network the guests came from (``RemoteAddress/limitGroup(of:)``).
    public let network: String
    /// How many were turned away for each reason.
    public internal(set) var counts: [Reason: Int] = [:]
    /// Whether this is a summary of the last minute (false: the first refusal, told at once).
    public let isSummary: Bool

    /// Refusals from `network`, counted by reason.
    public init(network: String, counts: [Reason: Int], isSummary: Bool) {
        self.network = network
        self.counts = counts
        self.isSummary = isSummary
    }

    /// How many guests in all.
    public var total: Int { counts.values.reduce(0, +) }
}

/// Counts password refusals per network, so that the host reads at most one line a minute for
/// each: a network's first refusal is told at once and opens its minute; those within the
/// minute are counted and told together when it ends (opening the next), and a minute without
/// any closes. Every call costs the same whatever the number of refusals.
package struct PasswordRefusalTally: Sendable {
    /// How often each network is told of at most.
    package static let period: Duration = .seconds(60)

    private var open: [String: (since: ContinuousClock.Instant, pending: [PasswordRefusals.Reason: Int])] = [:]

    /// A tally with nothing counted.
    package init() {}

    /// Notes one refusal for `reason` from `network` at `now`; what to tell at once (the first of
    /// its minute), or nil when it is counted for the minute's summary.
    package mutating func note(_ reason: PasswordRefusals.Reason, from network: String, at now: ContinuousClock.Instant) -> PasswordRefusals? {
        if open[network] != nil {
            open[network]?.pending[reason, default: 0] += 1
            return nil
        }
        open[network] = (now, [:])
        return PasswordRefusals(network: network, counts: [reason: 1], isSummary: false)
    }

    /// The summaries of the minutes that ended by `now`, oldest network first.
    package mutating func due(at now: ContinuousClock.Instant) -> [PasswordRefusals] {
        guard !open.isEmpty else { return [] }
        var summaries: [PasswordRefusals] = []
        for (network, window) in open where now - window.since >= Self.period {
            if window.pending.isEmpty {
                open[network] = nil
            } else {
                summaries.append(PasswordRefusals(network: network, counts: window.pending, isSummary: true))
                open[network] = (now, [:])
            }
        }
        return summaries.sorted { $0.network < $1.network }
    }
}
