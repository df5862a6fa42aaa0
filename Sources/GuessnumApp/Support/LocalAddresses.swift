/// The addresses other machines may reach this one at, for what the host tells people: every
/// address of every interface that is up, those of the LAN first, and the ones a player could
/// not use — loopback, containers' bridges, VPN tunnels, IPv6 link-local — left out and named.
public struct LocalAddresses: Sendable, Equatable {
    /// One address of one interface.
    public struct Address: Sendable, Equatable {
        /// The interface's name (`eth0`, `wlan0`, `docker0`).
        public var interface: String
        /// The address, numeric (`192.168.1.20`, `fd00::5`).
        public var address: String
        /// Whether it is IPv6.
        public var isIPv6: Bool

        public init(interface: String, address: String, isIPv6: Bool) {
            self.interface = interface
            self.address = address
            self.isIPv6 = isIPv6
        }
    }

    /// Why an interface's addresses are not told.
    public enum Exclusion: String, Sendable, Equatable {
        case loopback, container = "a container bridge", vpn = "a VPN tunnel", linkLocal = "IPv6 link-local"
    }

    /// The addresses to tell players, the likeliest first: IPv4, then IPv6 global and unique
    /// local, each in the interfaces' order.
    public var announced: [Address]
    /// The interfaces left out, each once, and why.
    public var leftOut: [(interface: String, reason: Exclusion)]

    public static func == (lhs: LocalAddresses, rhs: LocalAddresses) -> Bool {
        lhs.announced == rhs.announced && lhs.leftOut.map(\.interface) == rhs.leftOut.map(\.interface)
            && lhs.leftOut.map(\.reason) == rhs.leftOut.map(\.reason)
    }

    /// Sorts `addresses` (every address of every interface that is up, in the system's order).
    public init(ranking addresses: [Address], loopback: Set<String> = ["lo"]) {
        var announced: [Address] = []
        var leftOut: [(interface: String, reason: Exclusion)] = []
        func leave(_ interface: String, _ reason: Exclusion) {
            if !leftOut.contains(where: { $0.interface == interface && $0.reason == reason }) { leftOut.append((interface, reason)) }
        }
        for entry in addresses {
            if loopback.contains(entry.interface) || entry.address == "127.0.0.1" || entry.address == "::1" {
                leave(entry.interface, .loopback)
            } else if let reason = Self.virtualKind(of: entry.interface) {
                leave(entry.interface, reason)
            } else if entry.isIPv6, entry.address.lowercased().hasPrefix("fe80") {
                continue  // every IPv6 interface has one; it needs a scope a code cannot carry
            } else {
                announced.append(entry)
            }
        }
        self.announced = announced.filter { !$0.isIPv6 } + announced.filter(\.isIPv6)
        self.leftOut = leftOut
    }

    /// This machine's addresses now.
    public static func current() -> LocalAddresses {
        LocalAddresses(interfaces: NetworkInterface.current())
    }

    /// The addresses of `interfaces` that are up.
    public init(interfaces: [NetworkInterface]) {
        let up = interfaces.filter(\.isUp)
        self.init(ranking: up.flatMap(\.addresses), loopback: Set(up.filter(\.isLoopback).map(\.name)).union(["lo"]))
    }

    /// The first address to show for a direct join (`ADDR:PORT`), or loopback when there is none.
    public var bestForDirectJoin: String {
        guard let first = announced.first else { return "127.0.0.1" }
        return first.isIPv6 ? "[\(first.address)]" : first.address
    }

    /// "docker0 (a container bridge), tun0 (a VPN tunnel)"; nil when nothing was left out but loopback.
    public var leftOutText: String? {
        let shown = leftOut.filter { $0.reason != .loopback }
        guard !shown.isEmpty else { return nil }
        return shown.map { "\($0.interface) (\($0.reason.rawValue))" }.joined(separator: ", ")
    }

    /// Interfaces of containers and VPNs, by the names their software gives them.
    static func virtualKind(of interface: String) -> Exclusion? {
        let containers = ["docker", "br-", "veth", "virbr", "lxc", "lxd", "cni", "flannel", "cali", "podman", "vboxnet", "vmnet", "kube"]
        let tunnels = ["tun", "tap", "wg", "tailscale", "zt", "utun", "ppp", "ipsec", "nordlynx", "proton"]
        if containers.contains(where: interface.hasPrefix) { return .container }
        if tunnels.contains(where: interface.hasPrefix) { return .vpn }
        return nil
    }
}
