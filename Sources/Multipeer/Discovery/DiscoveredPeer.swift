/// A peer seen by a ``Browser``: who it is, where to reach it and what it advertises.
public struct DiscoveredPeer: Sendable, Hashable {
    /// The advertising peer, under the name the first service that claims its identity gives.
    public let peer: PeerID
    /// Where its session listens, in the order to try them.
    public let endpoints: [Endpoint]
    /// What it advertises.
    public let info: DiscoveryInfo
    /// Other names under which services claim the same identity. Anyone may announce a record
    /// with another peer's identity, so when this is not empty the name in ``peer`` is one claim
    /// among several: only connecting tells which name the identity's key gives itself.
    public let otherNames: [String]

    public init(peer: PeerID, endpoints: [Endpoint], info: DiscoveryInfo, otherNames: [String] = []) {
        self.peer = peer
        self.endpoints = endpoints
        self.info = info
        self.otherNames = otherNames
    }

    /// Whether services under more than one name claim this identity.
    public var hasConflictingNames: Bool { !otherNames.isEmpty }

    /// One peer as several sightings that claim its identity tell it together (services, or
    /// discovery backends), `claims` in rank order: the first's name and facts, every address
    /// (the first's first) and every other name claimed; nil when there are none.
    public static func merging(_ claims: [DiscoveredPeer]) -> DiscoveredPeer? {
        guard let first = claims.first else { return nil }
        var endpoints: [Endpoint] = []
        var otherNames: [String] = []
        for claim in claims {
            for endpoint in claim.endpoints where !endpoints.contains(endpoint) { endpoints.append(endpoint) }
            for name in [claim.peer.displayName] + claim.otherNames where name != first.peer.displayName && !otherNames.contains(name) {
                otherNames.append(name)
            }
        }
        return DiscoveredPeer(peer: first.peer, endpoints: endpoints, info: first.info, otherNames: otherNames)
    }
}
