/// The order in which to try a peer's addresses: the likeliest to work first, as RFC 6724's
/// destination address selection and RFC 8305 (Happy Eyeballs) advise, simplified for a LAN.
///
/// 1. addresses on a network this machine is on (an interface's subnet, not a container
///    bridge's or a VPN's, or this machine itself);
/// 2. IPv6 global and unique local addresses;
/// 3. IPv4 addresses, and host names;
/// 4. link-local addresses (IPv6 `fe80::` with their scope, IPv4 `169.254.x.x`);
/// 5. IPv6 link-local addresses without a scope, which no socket can reach.
///
/// The order within each group is the one given (the resolver's or the join code's).
public enum EndpointOrder {
    /// `endpoints`, the likeliest first, judged against this machine's `interfaces`.
    public static func sorted(_ endpoints: [Endpoint], near interfaces: [InterfaceAddress]) -> [Endpoint] {
        let networks = interfaces.filter { $0.kind == .lan || $0.kind == .loopback }.compactMap { local in
            IPAddressBytes(local.address).map { (address: $0, prefixLength: local.prefixLength) }
        }
        let ranked = endpoints.enumerated().map { index, endpoint in (rank: rank(endpoint, networks), index: index, endpoint: endpoint) }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.endpoint)
    }

    private static func rank(_ endpoint: Endpoint, _ networks: [(address: IPAddressBytes, prefixLength: Int)]) -> Int {
        guard let address = IPAddressBytes(endpoint.host) else { return 2 }  // a host name: the resolver decides
        if address.isLinkLocal { return address.isIPv6 && address.scope == nil ? 4 : 3 }
        if address.isLoopback || networks.contains(where: { address.sharesPrefix(with: $0.address, length: $0.prefixLength) && !$0.address.isLinkLocal }) {
            return 0
        }
        return address.isIPv6 ? 1 : 2
    }
}
