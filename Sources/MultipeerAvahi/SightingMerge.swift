import Foundation
import Multipeer

/// The merge of a service's sightings into the peer it is, and the events that report what
/// changed: a value with no Avahi in it, so its rules can be tested with tables.
///
/// Avahi reports a service once per interface and protocol. The latest resolution's TXT record
/// says who the peer is and what it announces; every resolution adds its address, IPv4 first,
/// earliest first, without repeats. A service name is one peer: found when its first sighting
/// resolves, found again (an update) when what its sightings say changes, lost when its last
/// sighting goes or it stops being a compatible peer.
///
/// Anyone can announce a TXT record with another peer's `id`. Services that claim one identity
/// are therefore merged, never replaced: the peer shows the name and info of the service that
/// claimed it first, every claimant's addresses (the first claimant's first) and the other
/// claimants' names (``DiscoveredPeer/otherNames``: which name is the peer's own is not known
/// before connecting). Connecting proves which address holds the identity's key (an address
/// where another key answers fails alone), and the peer is lost only when no service claims it
/// any more.
struct SightingMerge {
    /// What each service name says, by name.
    private(set) var reported: [String: DiscoveredPeer] = [:]
    /// The service names that claim each identity, in the order they claimed it.
    private var claimants: [UUID: [String]] = [:]
    /// What was last reported per identity.
    private var merged: [UUID: DiscoveredPeer] = [:]

    /// The events that bring what was reported for `name` up to date with `resolutions`, its
    /// resolved sightings (in any order).
    mutating func merge(_ name: String, _ resolutions: [AvahiSighting.Resolution]) -> [DiscoveryEvent] {
        let previous = reported[name]?.peer.identity
        if let latest = resolutions.max(by: { $0.sequence < $1.sequence }), let (peer, info) = TXTRecord.peer(named: name, from: latest.txt) {
            let ordered = resolutions.sorted { ($0.isIPv6 ? 1 : 0, $0.sequence) < ($1.isIPv6 ? 1 : 0, $1.sequence) }
            var endpoints: [Endpoint] = []
            for resolution in ordered {
                if let endpoint = try? Endpoint(host: resolution.address, port: resolution.port), !endpoints.contains(endpoint) {
                    endpoints.append(endpoint)
                }
            }
            reported[name] = DiscoveredPeer(peer: peer, endpoints: endpoints, info: info)
            if previous != peer.identity { claimants[peer.identity, default: []].append(name) }
        } else {
            reported[name] = nil
        }
        var events: [DiscoveryEvent] = []
        if let previous, previous != reported[name]?.peer.identity {
            claimants[previous]?.removeAll { $0 == name }
            if claimants[previous]?.isEmpty == true { claimants[previous] = nil }
            events += update(previous)
        }
        if let current = reported[name]?.peer.identity { events += update(current) }
        return events
    }

    /// Forgets every peer, with a lost event for each.
    mutating func removeAll() -> [DiscoveryEvent] {
        defer {
            reported = [:]
            claimants = [:]
            merged = [:]
        }
        return merged.values.map { .lost($0.peer) }
    }

    /// The event that reports `identity` as its claimants now say, if anything changed.
    private mutating func update(_ identity: UUID) -> [DiscoveryEvent] {
        let names = claimants[identity] ?? []
        guard let first = names.first, reported[first] != nil, let peer = DiscoveredPeer.merging(names.compactMap({ reported[$0] })) else {
            guard let gone = merged.removeValue(forKey: identity) else { return [] }
            return [.lost(gone.peer)]
        }
        guard merged[identity] != peer || merged[identity]?.peer.displayName != peer.peer.displayName else { return [] }
        merged[identity] = peer
        return [.found(peer)]
    }
}
