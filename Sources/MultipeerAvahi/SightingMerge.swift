import Multipeer

/// The merge of a service's sightings into the peer it is, and the events that report what
/// changed: a value with no Avahi in it, so its rules can be tested with tables.
///
/// Avahi reports a service once per interface and protocol. The latest resolution's TXT record
/// says who the peer is and what it announces; every resolution adds its address, IPv4 first,
/// earliest first, without repeats. A service name is one peer: found when its first sighting
/// resolves, found again (an update) when what its sightings say changes, lost when its last
/// sighting goes or it stops being a compatible peer.
struct SightingMerge {
    /// What was last reported per service name.
    private(set) var reported: [String: DiscoveredPeer] = [:]

    /// The events that bring what was reported for `name` up to date with `resolutions`, its
    /// resolved sightings (in any order).
    mutating func merge(_ name: String, _ resolutions: [AvahiSighting.Resolution]) -> [DiscoveryEvent] {
        guard let latest = resolutions.max(by: { $0.sequence < $1.sequence }),
              let (peer, info) = TXTRecord.peer(named: name, from: latest.txt)
        else {
            guard let gone = reported.removeValue(forKey: name) else { return [] }
            return [.lost(gone.peer)]
        }
        let ordered = resolutions.sorted { ($0.isIPv6 ? 1 : 0, $0.sequence) < ($1.isIPv6 ? 1 : 0, $1.sequence) }
        var endpoints: [Endpoint] = []
        for resolution in ordered {
            if let endpoint = try? Endpoint(host: resolution.address, port: resolution.port), !endpoints.contains(endpoint) {
                endpoints.append(endpoint)
            }
        }
        let discovered = DiscoveredPeer(peer: peer, endpoints: endpoints, info: info)
        var events: [DiscoveryEvent] = []
        if let previous = reported[name], previous.peer != peer { events.append(.lost(previous.peer)) }
        guard reported[name] != discovered || reported[name]?.peer.displayName != peer.displayName else { return events }
        reported[name] = discovered
        events.append(.found(discovered))
        return events
    }

    /// Forgets every peer, with a lost event for each.
    mutating func removeAll() -> [DiscoveryEvent] {
        defer { reported = [:] }
        return reported.values.map { .lost($0.peer) }
    }
}
