import Multipeer

/// Discovery without a discovery system: browsing reports a fixed list of peers, and
/// publishing announces nothing (whoever wrote the list already knows the address).
///
/// Use it to run browser-driven code against real TCP sessions without multicast, for
/// example on networks where mDNS is blocked.
public struct FixedAddressDiscovery: DiscoveryBackend {
    /// The peers every browser sees.
    public let peers: [DiscoveredPeer]

    /// A backend whose browsers see `peers`.
    public init(_ peers: [DiscoveredPeer]) {
        self.peers = peers
    }

    public func publish(
        _ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void
    ) async throws(MultipeerError) -> any Publication {
        onEvent(.established)
        return NothingPublished()
    }

    public func browse(
        _ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void
    ) async throws(MultipeerError) -> any BrowseOperation {
        for peer in peers { onEvent(.found(peer)) }
        return NothingBrowsed()
    }

    private struct NothingPublished: Publication {
        func update(_ info: DiscoveryInfo) async throws(MultipeerError) {}
        func cancel() async {}
    }

    private struct NothingBrowsed: BrowseOperation {
        func cancel() async {}
    }
}
