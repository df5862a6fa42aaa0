import Multipeer

/// Where a site publishes games for every subnet to find: a domain its DNS server is
/// authoritative for and takes signed updates in (DNS-SD over unicast DNS, RFC 6763 §11).
public struct UnicastDNSConfiguration: Sendable {
    /// The domain games are published in (`games.example.org.`).
    public var domain: DNSName
    /// The domain's DNS server, which takes the updates and answers the queries.
    public var server: Endpoint
    /// The key updates are signed with; nil to browse only.
    public var key: TSIGKey?
    /// How long a published record is vouched for, in seconds: its DNS TTL, and how long a
    /// browser keeps listing a game whose host stopped refreshing it (a host killed without
    /// withdrawing it) — browsers read it from the record. The host refreshes it three times
    /// within it. A browser's own is used only for a record without one.
    public var ttl: UInt32
    /// How often a browser asks the server for the games in the domain.
    public var pollInterval: Duration
    /// How long one question or update waits for the server.
    public var timeout: Duration
    /// How long after its lease lapsed a game left behind (its host killed, or gone for good)
    /// is removed from the zone by a host that publishes there — at its start, and every
    /// `pruneInterval` after.
    public var pruneAfter: Duration = .seconds(600)
    /// How often a publishing host looks for games left behind.
    public var pruneInterval: Duration = .seconds(600)
    /// The addresses this machine's games are reached at (A and AAAA records), asked at each
    /// publication and refresh.
    public var hostAddresses: @Sendable () -> [String]

    /// Publication in `domain` through `server`, signed with `key`.
    public init(
        domain: DNSName, server: Endpoint, key: TSIGKey?, ttl: UInt32 = 60, pollInterval: Duration = .seconds(5),
        timeout: Duration = .seconds(2), hostAddresses: @escaping @Sendable () -> [String]
    ) {
        self.domain = domain
        self.server = server
        self.key = key
        self.ttl = ttl
        self.pollInterval = pollInterval
        self.timeout = timeout
        self.hostAddresses = hostAddresses
    }

    var client: DNSClient { DNSClient(server: server, key: key, timeout: timeout) }
}
