import Foundation
import Logging
import Multipeer

/// Removes from the zone the games of hosts that died without withdrawing them (killed, or cut
/// off for good): instances whose lease lapsed more than ``UnicastDNSConfiguration/pruneAfter``
/// ago by this machine's clock — browsers stopped listing them long before. Run by a host that
/// publishes, with the site's key: each removal requires the instance's TXT record to be as read,
/// so a game refreshed meanwhile is left alone, and a host name is removed only when no
/// instance still in use points at it.
struct ZonePruning: Sendable {
    let configuration: UnicastDNSConfiguration
    /// The service type's name, whose pointers are read.
    let service: DNSName
    /// This host's own instance, never touched.
    let own: DNSName
    let logger: Logger

    /// One pass over at most 256 instances; how many games it removed.
    @discardableResult
    func run() async -> Int {
        let client = configuration.client
        let now = UInt64(Date().timeIntervalSince1970)
        let age = UInt64(configuration.pruneAfter.components.seconds)
        var stale: [(instance: DNSName, texts: [DNSRecord], target: DNSName?)] = []
        var targetsInUse: Set<DNSName> = []
        do {
            let pointers = try await client.records(.ptr, at: service)
            for case .ptr(let instance) in pointers.map(\.data).prefix(256)
            where instance != own && instance.isWithin(service) && instance.labels.count == service.labels.count + 1 {
                let texts = try await client.records(.txt, at: instance)
                var target: DNSName?
                if case .srv(_, _, _, let name)? = try await client.records(.srv, at: instance).first?.data { target = name }
                let lease = texts.count == 1 ? Self.lease(in: texts[0]) : nil
                if let lease, lease + age < now {
                    stale.append((instance, texts, target))
                } else if let target {
                    targetsInUse.insert(target)
                }
            }
        } catch {
            logger.debug("Could not look for stale games.", metadata: ["error": .string(error.message)])
            return 0
        }
        var removed = 0
        for game in stale {
            // Only host names of this library's own form (`gn-…` in the zone), and no one else's.
            let target = game.target.flatMap { name in
                name.isWithin(configuration.domain) && name.labels.count == configuration.domain.labels.count + 1
                    && name.labels[0].hasPrefix("gn-") && !targetsInUse.contains(name) ? name : nil
            }
            do {
                try await client.update(
                    zone: configuration.domain, requiring: game.texts,
                    deleting: [(game.instance, nil)] + (target.map { [($0, nil)] } ?? []),
                    removing: [DNSRecord(name: service, ttl: 0, data: .ptr(game.instance))])
                removed += 1
                logger.info("Removed a game whose host stopped refreshing it long ago.", metadata: ["instance": .string(game.instance.description)])
            } catch {
                logger.debug("Left a stale game in place.", metadata: ["instance": .string(game.instance.description), "error": .string(error.message)])
            }
        }
        return removed
    }

    /// The `lease` a TXT record carries, if it is one.
    private static func lease(in record: DNSRecord) -> UInt64? {
        guard case .txt(let strings) = record.data else { return nil }
        let entries = TXTRecord.parse(strings.map { String(decoding: $0, as: UTF8.self) })
        return entries[TXTRecord.leaseKey].flatMap { UInt64($0) }
    }
}
