import Foundation
import Multipeer
import MultipeerUnicastDNS

/// Where the program looks for games beside the LAN's mDNS: a site's DNS zone given with its
/// server, a zone given alone (its server found through this machine's resolver), or the zones
/// the resolver's search domains name (RFC 6763 §11) — or none.
public struct SiteZones: Sendable {
    /// How the zones are known.
    public enum Source: Sendable {
        /// No site's zone: mDNS alone.
        case none
        /// A zone given with its server.
        case given(UnicastDNSConfiguration)
        /// A zone given without its server: the primary its SOA record names.
        case serverToFind(DNSName)
        /// The zones the site names under the resolver's search domains.
        case searchDomains
    }

    /// How the zones are known.
    public var source: Source
    /// The key hosts publish with; nil to browse only.
    public var key: TSIGKey?
    /// This machine's resolver, for the look-ups (empty when its configuration cannot be read).
    public var resolver: ResolverSettings
    /// The addresses this machine's games are reached at.
    public var hostAddresses: @Sendable () -> [String]
    /// How long a published game is vouched for, in seconds (its records' TTL).
    public var ttl: UInt32

    /// The zones as given: `domain` and `server` as typed (either may be nil), `key` and `ttl`
    /// for hosts.
    /// With no domain, the resolver's search domains are looked under when it has any.
    /// - Throws: ``AppFailure`` (usage) when the server is not an address.
    public init(
        domain: String?, server: String?, key: TSIGKey?, ttl: UInt32 = 60, resolver: ResolverSettings,
        hostAddresses: @escaping @Sendable () -> [String]
    ) throws(AppFailure) {
        self.key = key
        self.ttl = ttl
        self.resolver = resolver
        self.hostAddresses = hostAddresses
        switch (domain.flatMap { $0.isEmpty ? nil : DNSName($0) }, server.flatMap { $0.isEmpty ? nil : $0 }) {
        case (let domain?, let server?):
            source = .given(
                UnicastDNSConfiguration(domain: domain, server: try Self.endpoint(server), key: key, ttl: ttl, hostAddresses: hostAddresses))
        case (let domain?, nil):
            source = .serverToFind(domain)
        case (nil, let server?):
            throw AppFailure("The DNS server \(server) is given without its zone: give the zone too (--dns-domain, GUESSNUM_DNS_DOMAIN, or `domain` in site-dns.conf).", .usage)
        case (nil, nil):
            source = resolver.searchDomains.isEmpty ? .none : .searchDomains
        }
    }

    /// The backend for the site's zones beside mDNS, or nil for none.
    public func discovery() -> (any DiscoveryBackend)? {
        switch source {
        case .none: return nil
        case .given(let configuration): return UnicastDNSDiscovery(configuration: configuration)
        case .serverToFind: return SiteZoneDiscovery(finding: configurations(for:), tellsFailures: true)
        case .searchDomains: return SiteZoneDiscovery(finding: configurations(for:), tellsFailures: false)
        }
    }

    /// The zones with their servers for `purpose`: none to publish in without a key.
    /// - Throws: ``DNSError`` with a sentence when the look-up fails, or no zone's server can
    ///   be found.
    @Sendable public func configurations(for purpose: SiteZoneLookup.Purpose) async throws(DNSError) -> [UnicastDNSConfiguration] {
        let domains: [DNSName]
        switch source {
        case .none: return []
        case .given(let configuration): return [configuration]
        case .serverToFind(let domain): domains = [domain]
        case .searchDomains:
            guard purpose == .browsing || key != nil else { return [] }
            domains = try await SiteZoneLookup(resolver: resolver).domains(for: purpose)
        }
        // A zone whose server cannot be found does not hide the others; it is said when it was
        // the only one.
        var configurations: [UnicastDNSConfiguration] = []
        var failure: DNSError?
        for domain in domains {
            do {
                let server = try await SiteZoneLookup(resolver: resolver).server(of: domain)
                configurations.append(UnicastDNSConfiguration(domain: domain, server: server, key: key, ttl: ttl, hostAddresses: hostAddresses))
            } catch {
                failure = failure ?? error
            }
        }
        if configurations.isEmpty, let failure { throw failure }
        return configurations
    }

    /// A server as typed: an address without a port is asked on 53 (IPv4 `10.0.0.53`, IPv6
    /// `fd00::53` or `[fd00::53]`), or `ADDRESS:PORT`.
    static func endpoint(_ text: String) throws(AppFailure) -> Endpoint {
        let colons = text.count { $0 == ":" }
        let withPort = text.hasPrefix("[") && !text.contains("]:") ? text + ":53"
            : colons > 1 && !text.hasPrefix("[") ? "[\(text)]:53"
            : colons == 0 ? text + ":53" : text
        do { return try Endpoint(parsing: withPort) } catch {
            throw AppFailure("--dns-server: \(error.message)", .usage, underlying: error)
        }
    }
}

extension SiteZones {
    /// The site's zones as a command's options (nil: not given), the environment, the site's
    /// files (`site-dns.conf`, `site-dns.key` in `~/.config/guessnum/`) and the resolver say,
    /// in that order.
    /// - Throws: ``AppFailure`` (usage) when a setting or a key file cannot be read.
    public static func configured(
        domain: String?, server: String?, keyFile: String?, environment: [String: String], resolverConfiguration: String = "/etc/resolv.conf"
    ) throws(AppFailure) -> SiteZones {
        let files = try SiteFiles(in: XDGDirectory.config(environment: environment).appendingPathComponent("guessnum", isDirectory: true))
        let domain = domain ?? environment["GUESSNUM_DNS_DOMAIN"] ?? files.domain
        // A server given for another zone than the one used would be wrong: the files' server
        // goes with the files' zone.
        let server = server ?? environment["GUESSNUM_DNS_SERVER"] ?? (domain == files.domain ? files.server : nil)
        var key = files.key
        if let path = keyFile ?? environment["GUESSNUM_DNS_KEY_FILE"], !path.isEmpty { key = try SiteFiles.key(at: path) }
        return try SiteZones(
            domain: domain, server: server, key: key, ttl: files.ttl ?? 60,
            resolver: (try? ResolverSettings(readingFile: resolverConfiguration)) ?? ResolverSettings(nameservers: [], searchDomains: []),
            hostAddresses: { LocalAddresses.current().announced.map(\.address) })
    }
}
