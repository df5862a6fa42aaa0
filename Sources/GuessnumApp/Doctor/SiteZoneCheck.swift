import Foundation
import Multipeer
import MultipeerUnicastDNS

/// Check 8, when a site's zone is given (`--dns-domain`…) or the network names one: its DNS
/// server answers and lists the games published there; and the key lets this machine publish
/// (a harmless update: a record of doctor's own written and removed at once).
enum SiteZoneCheck {
    static let serverID = "site-dns"
    static let keyID = "site-dns-key"

    static func run(_ zones: SiteZones) async -> [DoctorCheck] {
        let configurations: [UnicastDNSConfiguration]
        do { configurations = try await zones.configurations(for: .browsing) } catch {
            if case .searchDomains = zones.source {
                return [DoctorCheck(id: serverID, title: "the site's DNS zones", status: .skipped, finding: "could not look for them: " + withoutFullStop(error.message))]
            }
            return [
                DoctorCheck(
                    id: serverID, title: "the site's DNS server", status: .failed, finding: withoutFullStop(error.message),
                    fix: "give the zone's server with --dns-server (or `server` in ~/.config/guessnum/site-dns.conf), from the site's administrator"),
                DoctorCheck(id: keyID, title: "publishing there", status: .skipped, finding: "no server to publish in"),
            ]
        }
        if configurations.isEmpty, case .searchDomains = zones.source {
            let domains = zones.resolver.searchDomains.map(\.description).joined(separator: ", ")
            return [
                DoctorCheck(
                    id: serverID, title: "the site's DNS zones", status: .skipped,
                    finding: "the network's search domain (\(domains)) names no zone for games, so games are found on this LAN only",
                    fix: "to list games across subnets, ask the site's administrator for its zone and give it with --dns-domain"),
            ]
        }
        var checks: [DoctorCheck] = []
        for configuration in configurations { checks += await run(configuration) }
        return checks
    }

    static func run(_ configuration: UnicastDNSConfiguration) async -> [DoctorCheck] {
        let client = DNSClient(server: configuration.server, key: configuration.key, timeout: configuration.timeout)
        let zone = configuration.domain
        let service = zone.prepending("_tcp").prepending("_guessnum")
        let serverTitle = "the site's DNS server for \(zone.readable)"
        let pointers: [DNSRecord]
        do { pointers = try await client.records(.ptr, at: service) } catch {
            return [
                DoctorCheck(
                    id: serverID, title: serverTitle, status: .failed, finding: withoutFullStop(error.message),
                    fix: "check --dns-server (or GUESSNUM_DNS_SERVER) with the site's administrator, and that this network reaches it on port \(configuration.server.port), UDP and TCP"),
                DoctorCheck(id: keyID, title: "publishing in \(zone.readable)", status: .skipped, finding: "the server does not answer"),
            ]
        }
        let games = pointers.compactMap { record -> String? in
            if case .ptr(let instance) = record.data { instance.labels.first } else { nil }
        }
        let server = DoctorCheck(
            id: serverID, title: serverTitle, status: .ok,
            finding: "it answers at \(configuration.server); " + (games.isEmpty ? "no game is published there now" : "published there: \(games.prefix(10).joined(separator: ", "))"),
            items: games)
        return [server, await keyCheck(client, zone: zone)]
    }

    /// Whether the server takes this machine's updates: a TXT record of doctor's own, written
    /// then removed.
    private static func keyCheck(_ client: DNSClient, zone: DNSName) async -> DoctorCheck {
        let title = "publishing in \(zone.readable)"
        guard let key = client.key else {
            return DoctorCheck(
                id: keyID, title: title, status: .skipped, finding: "no key given, so games hosted here are listed on this LAN only",
                fix: "to publish games here, ask the site's administrator for the key file and give it with --dns-key (or GUESSNUM_DNS_KEY_FILE)")
        }
        let probe = zone.prepending("_guessnum-doctor")
        do {
            try await client.update(zone: zone, deleting: [(probe, .txt)], adding: [DNSRecord(name: probe, ttl: 0, data: .txt([Array("doctor".utf8)]))])
            try await client.update(zone: zone, deleting: [(probe, nil)])
        } catch {
            return DoctorCheck(
                id: keyID, title: title, status: .failed, finding: withoutFullStop(error.message),
                fix: error.code == .notInZone
                    ? "give the zone itself with --dns-domain (the name of the zone the server is authoritative for)"
                    : "get the key file again from the site's administrator (tsig-keygen's or keymgr's output) and give it with --dns-key; check this machine's clock")
        }
        return DoctorCheck(id: keyID, title: title, status: .ok, finding: "the server takes updates signed with \(key.name): games hosted here are published in \(zone.readable)")
    }

    private static func withoutFullStop(_ sentence: String) -> String {
        sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}
