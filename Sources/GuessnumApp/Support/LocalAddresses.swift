import Multipeer
import MultipeerPOSIX

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
    /// IPv6 link-local addresses of LAN interfaces: a code carries them when the network has no
    /// other addresses (an IPv6-only link), and the player's side adds its own scope.
    public var linkLocal: [Address]
    /// The interfaces left out, each once, and why.
    public var leftOut: [(interface: String, reason: Exclusion)]

    public static func == (lhs: LocalAddresses, rhs: LocalAddresses) -> Bool {
        lhs.announced == rhs.announced && lhs.linkLocal == rhs.linkLocal && lhs.leftOut.map(\.interface) == rhs.leftOut.map(\.interface)
            && lhs.leftOut.map(\.reason) == rhs.leftOut.map(\.reason)
    }

    /// Sorts `addresses` (every address of every interface that is up, in the system's order);
    /// within each family the addresses of the `routing` interfaces (those with the default
    /// route, on most machines the LAN) come first.
    public init(ranking addresses: [Address], loopback: Set<String> = ["lo"], routing: Set<String> = []) {
        var announced: [Address] = []
        var linkLocal: [Address] = []
        var leftOut: [(interface: String, reason: Exclusion)] = []
        func leave(_ interface: String, _ reason: Exclusion) {
            if !leftOut.contains(where: { $0.interface == interface && $0.reason == reason }) { leftOut.append((interface, reason)) }
        }
        for entry in addresses {
            if loopback.contains(entry.interface) || entry.address == "127.0.0.1" || entry.address == "::1" {
                leave(entry.interface, .loopback)
            } else if let reason = Self.virtualKind(of: entry.interface) {
                // Said only for an address a player might have tried: every container's veth has a
                // link-local address, and naming each would bury the line.
                if !entry.address.lowercased().hasPrefix("fe80") { leave(entry.interface, reason) }
            } else if entry.isIPv6, entry.address.lowercased().hasPrefix("fe80") {
                linkLocal.append(entry)  // every IPv6 interface has one; usable only with the player's scope
            } else {
                announced.append(entry)
            }
        }
        self.announced = announced.enumerated().sorted { a, b in
            (a.element.isIPv6 ? 1 : 0, routing.contains(a.element.interface) ? 0 : 1, a.offset)
                < (b.element.isIPv6 ? 1 : 0, routing.contains(b.element.interface) ? 0 : 1, b.offset)
        }.map(\.element)
        self.linkLocal = linkLocal
        self.leftOut = leftOut
    }

    /// The addresses a join code carries: the announced ones, or on a network with nothing but
    /// IPv6 link-local addresses, those.
    public var forJoinCode: [String] {
        (announced.isEmpty ? linkLocal : announced).map(\.address)
    }

    /// This machine's addresses now.
    public static func current() -> LocalAddresses {
        LocalAddresses(interfaces: NetworkInterface.current(), routing: NetworkInterfaces.defaultRouteInterfaces())
    }

    /// The addresses of `interfaces` that are up; those of the `routing` interfaces (with the
    /// default route) first in their family.
    public init(interfaces: [NetworkInterface], routing: Set<String> = []) {
        let up = interfaces.filter(\.isUp)
        self.init(ranking: up.flatMap(\.addresses), loopback: Set(up.filter(\.isLoopback).map(\.name)).union(["lo"]), routing: routing)
    }

    /// The first address to show for a direct join (`ADDR:PORT`): the likeliest announced one;
    /// on a link with nothing but IPv6 link-local addresses, one with this machine's interface as
    /// its scope (a player on the same link names their own interface instead); else loopback.
    public var bestForDirectJoin: String {
        if let first = announced.first { return first.isIPv6 ? "[\(first.address)]" : first.address }
        if let link = linkLocal.first { return "[\(link.address)%\(link.interface)]" }
        return "127.0.0.1"
    }

    /// "docker0 (a container bridge), tun0 (a VPN tunnel)"; nil when nothing was left out but loopback.
    public var leftOutText: String? {
        let shown = leftOut.filter { $0.reason != .loopback }
        guard !shown.isEmpty else { return nil }
        return shown.map { "\($0.interface) (\($0.reason.rawValue))" }.joined(separator: ", ")
    }

    /// Interfaces of containers and VPNs, by the names their software gives them.
    static func virtualKind(of interface: String) -> Exclusion? {
        switch InterfaceAddress.kind(ofInterfaceNamed: interface) {
        case .container: .container
        case .vpn: .vpn
        case .lan, .loopback: nil
        }
    }
}
