import ArgumentParser
import Foundation
import GuessnumApp
import Multipeer
import MultipeerAvahi
import MultipeerUnicastDNS

/// Where a site publishes games for every subnet (DNS-SD over its unicast DNS server), beside
/// the LAN's mDNS: the zone, its server and, for hosts, the key that lets them publish. Each
/// option falls back on an environment variable, so that a site can set them once for everyone.
struct SiteDNSOptions: ParsableArguments {
    @Option(name: .customLong("dns-domain"), help: "A site's DNS zone where games are also published and found, across subnets (or GUESSNUM_DNS_DOMAIN).")
    var domain: String?

    @Option(name: .customLong("dns-server"), help: "That zone's DNS server, ADDRESS or ADDRESS:PORT (or GUESSNUM_DNS_SERVER; port 53 by default).")
    var server: String?

    @Option(name: .customLong("dns-key"), help: "For hosts: the file of the TSIG key the site's administrator gave, which lets hosts publish there (or GUESSNUM_DNS_KEY_FILE).")
    var keyFile: String?

    /// The discovery a program uses: mDNS through Avahi, and the site's zone when one is given.
    /// - Throws: ``AppFailure`` (usage) when the zone is given without its server, or the key
    ///   file cannot be read as a key.
    func discovery(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppFailure) -> any DiscoveryBackend {
        guard let configuration = try configuration(environment: environment) else { return AvahiDiscovery() }
        return MergedDiscovery([AvahiDiscovery(), UnicastDNSDiscovery(configuration: configuration)])
    }

    /// The site's zone as given, or nil when none is.
    func configuration(environment: [String: String]) throws(AppFailure) -> UnicastDNSConfiguration? {
        guard let domain = domain ?? environment["GUESSNUM_DNS_DOMAIN"], !domain.isEmpty else { return nil }
        guard let serverText = server ?? environment["GUESSNUM_DNS_SERVER"], !serverText.isEmpty else {
            throw AppFailure("--dns-domain \(domain) needs its DNS server too: --dns-server ADDRESS (or GUESSNUM_DNS_SERVER).", .usage)
        }
        let server: Endpoint
        do {
            // An address without a port is asked on 53: IPv4 `10.0.0.53`, IPv6 `fd00::53` or `[fd00::53]`.
            let colons = serverText.count { $0 == ":" }
            let text = serverText.hasPrefix("[") && !serverText.contains("]:") ? serverText + ":53"
                : colons > 1 && !serverText.hasPrefix("[") ? "[\(serverText)]:53"
                : colons == 0 ? serverText + ":53" : serverText
            server = try Endpoint(parsing: text)
        } catch {
            throw AppFailure("--dns-server: \(error.message)", .usage, underlying: error)
        }
        var key: TSIGKey?
        if let path = keyFile ?? environment["GUESSNUM_DNS_KEY_FILE"], !path.isEmpty {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw AppFailure("Could not read the DNS key file \(path): \(error.localizedDescription).", .usage, underlying: error)
            }
            do { key = try TSIGKey(parsing: text) } catch {
                throw AppFailure("The DNS key file \(path): \(error.message)", .usage, underlying: error)
            }
        }
        return UnicastDNSConfiguration(
            domain: DNSName(domain), server: server, key: key,
            hostAddresses: { LocalAddresses.current().announced.map(\.address) })
    }
}
