/// One address of one of this machine's network interfaces.
public struct InterfaceAddress: Sendable, Hashable {
    /// What an interface is for, judged by the name its software gives it.
    public enum Kind: String, Sendable, Hashable {
        /// A network other machines are on: Ethernet, Wi-Fi, a second LAN.
        case lan
        /// This machine only (`lo`).
        case loopback
        /// A bridge to containers or virtual machines on this machine (`docker0`, `virbr0`, `veth…`).
        case container
        /// A VPN tunnel (`tun0`, `wg0`, `tailscale0`).
        case vpn
    }

    /// The interface's name (`eth0`, `wlan0`, `docker0`).
    public var interface: String
    /// The address, numeric and without a scope (`192.168.1.20`, `fe80::1`).
    public var address: String
    /// How many leading bits name the network the address is on (24 for a /24).
    public var prefixLength: Int
    /// Whether it is IPv6.
    public var isIPv6: Bool
    /// Whether the interface carries multicast (mDNS needs it).
    public var supportsMulticast: Bool
    /// What the interface is for.
    public var kind: Kind

    public init(interface: String, address: String, prefixLength: Int, isIPv6: Bool, supportsMulticast: Bool = true, kind: Kind? = nil) {
        self.interface = interface
        self.address = address
        self.prefixLength = prefixLength
        self.isIPv6 = isIPv6
        self.supportsMulticast = supportsMulticast
        self.kind = kind ?? Self.kind(ofInterfaceNamed: interface)
    }

    /// Whether the address is IPv6 link-local (`fe80::/10`) or IPv4 link-local (`169.254.0.0/16`):
    /// usable only on its own link, and for IPv6 only with the interface named.
    public var isLinkLocal: Bool {
        IPAddressBytes(address).map(\.isLinkLocal) ?? false
    }

    /// The kind of interface `name` is, by the names container, virtualization and VPN software
    /// give their interfaces; `lo` is loopback; anything else is taken for a LAN.
    public static func kind(ofInterfaceNamed name: String) -> Kind {
        let containers = ["docker", "br-", "veth", "virbr", "lxc", "lxd", "cni", "flannel", "cali", "podman", "vboxnet", "vmnet", "kube"]
        let tunnels = ["tun", "tap", "wg", "tailscale", "zt", "utun", "ppp", "ipsec", "nordlynx", "proton"]
        if name == "lo" { return .loopback }
        if containers.contains(where: name.hasPrefix) { return .container }
        if tunnels.contains(where: name.hasPrefix) { return .vpn }
        return .lan
    }
}
