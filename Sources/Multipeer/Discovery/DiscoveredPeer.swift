/// A peer seen by a ``Browser``: who it is, where to reach it and what it advertises.
public struct DiscoveredPeer: Sendable, Hashable {
    /// The advertising peer.
    public let peer: PeerID
    /// Where its session listens, in the order to try them.
    public let endpoints: [Endpoint]
    /// What it advertises.
    public let info: DiscoveryInfo

    public init(peer: PeerID, endpoints: [Endpoint], info: DiscoveryInfo) {
        self.peer = peer
        self.endpoints = endpoints
        self.info = info
    }
}
