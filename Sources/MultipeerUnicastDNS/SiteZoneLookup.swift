import Multipeer

/// Finds a site's zones and their server through this machine's resolver, the way DNS-SD says
/// (RFC 6763 §11): under each search domain, `b._dns-sd._udp` and `db._dns-sd._udp` name the
/// domains to browse, `dr._dns-sd._udp` and `r._dns-sd._udp` the domains to publish in; a
/// zone's server is its SOA record's primary (where RFC 2136 sends updates), at the address the
/// resolver gives for it.
public struct SiteZoneLookup: Sendable {
    /// What a zone is looked for.
    public enum Purpose: Sendable, Hashable {
        /// Listing games: every browse domain the site names.
        case browsing
        /// Publishing a game: the site's registration domain (its default first).
        case publishing
    }

    /// The resolver asked, and the search domains looked under.
    public var resolver: ResolverSettings
    /// How long one question waits for a name server.
    public var timeout: Duration

    /// Lookups through `resolver`.
    public init(resolver: ResolverSettings, timeout: Duration = .seconds(2)) {
        self.resolver = resolver
        self.timeout = timeout
    }

    /// The domains the site names for `purpose` under the search domains, in order, each once:
    /// every browse domain, or the one registration domain to publish in (none when the site
    /// names none, or the resolver configuration has no search domain).
    /// - Throws: ``DNSError`` when no name server answers.
    public func domains(for purpose: Purpose) async throws(DNSError) -> [DNSName] {
        let labels = purpose == .browsing ? ["b", "db"] : ["dr", "r"]
        var found: [DNSName] = []
        for searchDomain in resolver.searchDomains {
            for label in labels {
                let name = searchDomain.prepending("_udp").prepending("_dns-sd").prepending(label)
                for case .ptr(let domain) in try await ask(.ptr, at: name).map(\.data) where !found.contains(domain) && !domain.labels.isEmpty {
                    found.append(domain)
                }
                if purpose == .publishing, let first = found.first { return [first] }
            }
        }
        return found
    }

    /// The server that takes updates for `zone` and answers for it: the primary its SOA record
    /// names, at the first address the resolver gives for that name (port 53).
    /// - Throws: ``DNSError``: no name server answers, no zone holds the name, or its primary
    ///   has no address.
    public func server(of zone: DNSName) async throws(DNSError) -> Endpoint {
        var primary: DNSName?
        try await eachNameserver { client throws(DNSError) in primary = try await client.primaryServer(ofZoneHolding: zone) }
        guard let primary else {
            throw DNSError(.notInZone, "No DNS zone holds \(zone), as this machine's resolver sees it: check the domain with the site's administrator.")
        }
        for type in [DNSRecordType.a, .aaaa] {
            for record in try await ask(type, at: primary) {
                switch record.data {
                case .a(let address), .aaaa(let address):
                    if let server = try? Endpoint(host: address, port: 53) { return server }
                default: continue
                }
            }
        }
        throw DNSError(.badResponse, "The DNS server of \(zone), \(primary), has no address that this machine's resolver knows: ask the site's administrator.")
    }

    /// The records of `type` at `name`, as the first name server that answers gives them.
    private func ask(_ type: DNSRecordType, at name: DNSName) async throws(DNSError) -> [DNSRecord] {
        var records: [DNSRecord] = []
        try await eachNameserver { client throws(DNSError) in records = try await client.records(type, at: name) }
        return records
    }

    /// Runs `question` with a client of each name server in turn until one answers.
    private func eachNameserver(_ question: (DNSClient) async throws(DNSError) -> Void) async throws(DNSError) {
        var last = DNSError(.unreachable, "This machine's resolver configuration names no DNS server.")
        for server in resolver.nameservers {
            do throws(DNSError) {
                return try await question(DNSClient(server: server, key: nil, timeout: timeout, recursionDesired: true))
            } catch where error.code == .unreachable {
                last = error
            }
        }
        throw last
    }
}
