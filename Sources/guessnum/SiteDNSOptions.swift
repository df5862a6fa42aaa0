import ArgumentParser
import Foundation
import GuessnumApp
import Multipeer
import MultipeerAvahi
import MultipeerUnicastDNS

/// Where a site publishes games for every subnet (DNS-SD over its unicast DNS server), beside
/// the LAN's mDNS: the zone, its server and, for hosts, the key that lets them publish. Each
/// option falls back on an environment variable, then on the files the site's administrator
/// hands out (`site-dns.conf`, `site-dns.key` in `~/.config/guessnum/`); with no zone anywhere,
/// the zones the network's search domain names are looked for (RFC 6763 §11).
struct SiteDNSOptions: ParsableArguments {
    @Option(name: .customLong("dns-domain"), help: "A site's DNS zone where games and file-drop receivers are also published and found, across subnets (or GUESSNUM_DNS_DOMAIN, or `domain` in ~/.config/guessnum/site-dns.conf; by default the zones the network's search domain names).")
    var domain: String?

    @Option(name: .customLong("dns-server"), help: "That zone's DNS server, ADDRESS or ADDRESS:PORT (or GUESSNUM_DNS_SERVER, or `server` in site-dns.conf; by default the server the zone's SOA record names, port 53).")
    var server: String?

    @Option(name: .customLong("dns-key"), help: "For hosts and receivers: the file of the TSIG key the site's administrator gave, which lets them publish there (or GUESSNUM_DNS_KEY_FILE; by default ~/.config/guessnum/site-dns.key).")
    var keyFile: String?

    /// The discovery a program uses: mDNS through Avahi, and the site's zones when there are.
    /// - Throws: ``AppFailure`` (usage) when a setting or a key file cannot be read.
    func discovery(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppFailure) -> any DiscoveryBackend {
        guard let site = try zones(environment: environment).discovery() else { return AvahiDiscovery() }
        return MergedDiscovery([AvahiDiscovery(), site])
    }

    /// The site's zones as the options, the environment, the site's files and the resolver say.
    func zones(environment: [String: String]) throws(AppFailure) -> SiteZones {
        try SiteZones.configured(domain: domain, server: server, keyFile: keyFile, environment: environment)
    }
}
