import CLDNS
import Multipeer

/// What this machine's resolver configuration (`/etc/resolv.conf`, as DHCP or the
/// administrator wrote it) says: the name servers to ask, and the search domains — where DNS-SD
/// looks for the site's browse and registration domains (RFC 6763 §11). Read by ldns.
public struct ResolverSettings: Sendable, Hashable {
    /// The name servers, in the order given.
    public var nameservers: [Endpoint]
    /// The search domains (`search`, else `domain`), in the order given.
    public var searchDomains: [DNSName]

    /// Settings given directly.
    public init(nameservers: [Endpoint], searchDomains: [DNSName]) {
        self.nameservers = nameservers
        self.searchDomains = searchDomains
    }

    /// The settings in the resolver configuration file at `path`.
    /// - Throws: ``DNSError/Code/invalidInput`` when it cannot be read.
    public init(readingFile path: String = "/etc/resolv.conf") throws(DNSError) {
        var resolver: UnsafeMutablePointer<ldns_resolver>?
        let status = ldns_resolver_new_frm_file(&resolver, path)
        guard status == LDNS_STATUS_OK, let resolver else {
            throw DNSError(.invalidInput, "Could not read the resolver configuration \(path): \(String(cString: ldns_get_errorstr_by_id(status))).")
        }
        defer { ldns_resolver_deep_free(resolver) }
        let port = Int(ldns_resolver_port(resolver))
        let servers = UnsafeBufferPointer(start: ldns_resolver_nameservers(resolver), count: ldns_resolver_nameserver_count(resolver))
        nameservers = servers.compactMap { rdf in
            guard let rdf, let text = ldns_rdf2str(rdf) else { return nil }
            defer { free(text) }
            return try? Endpoint(host: String(cString: text), port: port == 0 ? 53 : port)
        }
        let search = UnsafeBufferPointer(start: ldns_resolver_searchlist(resolver), count: ldns_resolver_searchlist_count(resolver))
        var domains = search.compactMap { DNSName(reading: $0) }
        if domains.isEmpty, let domain = DNSName(reading: ldns_resolver_domain(resolver)) { domains = [domain] }
        searchDomains = domains.filter { !$0.labels.isEmpty }
    }
}
