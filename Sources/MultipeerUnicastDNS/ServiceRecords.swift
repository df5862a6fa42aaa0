import Foundation
import Multipeer

/// The DNS-SD records (RFC 6763) that announce one advertisement in a unicast domain: the
/// service type's pointer to the instance, the instance's server and port, its TXT entries,
/// and the addresses of its host.
struct ServiceRecords: Sendable {
    /// `_guessnum._tcp.DOMAIN`: the type's instances, shared by every host.
    let service: DNSName
    /// `NAME._guessnum._tcp.DOMAIN`: this advertisement's own.
    let instance: DNSName
    /// `gn-…​.DOMAIN`: the host's addresses, named after the peer's identity.
    let host: DNSName

    init(_ advertisement: Advertisement, in domain: DNSName) {
        service = Self.service(advertisement.serviceType, in: domain)
        instance = service.prepending(advertisement.peer.displayName)
        let identity = advertisement.peer.identity.uuidString.lowercased().filter(\.isHexDigit)
        host = domain.prepending("gn-" + identity.prefix(16))
    }

    /// The name under which `type`'s instances are listed in `domain`.
    static func service(_ type: ServiceType, in domain: DNSName) -> DNSName {
        let parts = type.dnsSDType.split(separator: ".").map(String.init)  // "_guessnum", "_tcp"
        return DNSName(labels: parts + domain.labels)
    }

    /// The pointer from the service type to this instance: removed alone, as others share its name.
    func pointer(ttl: UInt32) -> DNSRecord { DNSRecord(name: service, ttl: ttl, data: .ptr(instance)) }

    /// The names whose records are this advertisement's alone: replaced whole at each write.
    var owned: [(name: DNSName, type: DNSRecordType?)] { [(instance, nil), (host, nil)] }

    /// Every record, with `entries` (the TXT record's `key=value` strings) and `addresses`.
    func records(port: Int, entries: [String], addresses: [String], ttl: UInt32) -> [DNSRecord] {
        var records = [
            pointer(ttl: ttl),
            DNSRecord(name: instance, ttl: ttl, data: .srv(priority: 0, weight: 0, port: UInt16(clamping: port), target: host)),
            DNSRecord(name: instance, ttl: ttl, data: .txt(entries.map { Array($0.utf8) })),
        ]
        for address in addresses {
            records.append(DNSRecord(name: host, ttl: ttl, data: address.contains(":") ? .aaaa(address) : .a(address)))
        }
        return records
    }
}
