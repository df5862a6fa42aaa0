@testable import GuessnumApp
import Testing

@Suite("What the host tells people", .timeLimit(.minutes(1)))
struct LocalAddressesTests {
    typealias Address = LocalAddresses.Address

    @Test("LAN addresses first, IPv4 before IPv6; loopback, container bridges, VPN tunnels and link-local left out and named")
    func ranking() {
        let found = [
            Address(interface: "lo", address: "127.0.0.1", isIPv6: false),
            Address(interface: "docker0", address: "172.17.0.1", isIPv6: false),
            Address(interface: "eth0", address: "fd00::20", isIPv6: true),
            Address(interface: "eth0", address: "fe80::1", isIPv6: true),
            Address(interface: "tun0", address: "10.8.0.2", isIPv6: false),
            Address(interface: "eth0", address: "192.168.1.20", isIPv6: false),
            Address(interface: "wlan0", address: "192.168.2.7", isIPv6: false),
            Address(interface: "veth12ab", address: "172.18.0.1", isIPv6: false),
        ]
        let ranked = LocalAddresses(ranking: found)
        #expect(ranked.announced.map(\.address) == ["192.168.1.20", "192.168.2.7", "fd00::20"])
        #expect(ranked.bestForDirectJoin == "192.168.1.20")
        #expect(ranked.leftOutText == "docker0 (a container bridge), tun0 (a VPN tunnel), veth12ab (a container bridge)")
    }

    @Test("With nothing but loopback, players are shown loopback and nothing is said to be left out")
    func onlyLoopback() {
        let ranked = LocalAddresses(ranking: [Address(interface: "lo", address: "127.0.0.1", isIPv6: false)])
        #expect(ranked.announced.isEmpty && ranked.bestForDirectJoin == "127.0.0.1" && ranked.leftOutText == nil)
        let v6 = LocalAddresses(ranking: [Address(interface: "eth0", address: "2001:db8::5", isIPv6: true)])
        #expect(v6.bestForDirectJoin == "[2001:db8::5]")
    }

    @Test("A join code carries the announced addresses; on a link with nothing but IPv6 link-local, those")
    func joinCodeAddresses() {
        let dual = LocalAddresses(ranking: [
            Address(interface: "eth0", address: "fe80::1", isIPv6: true), Address(interface: "eth0", address: "192.168.1.20", isIPv6: false),
        ])
        #expect(dual.forJoinCode == ["192.168.1.20"])
        let linkOnly = LocalAddresses(ranking: [
            Address(interface: "lo", address: "::1", isIPv6: true), Address(interface: "lan0", address: "fe80::1", isIPv6: true),
            Address(interface: "docker0", address: "fe80::2", isIPv6: true),
        ])
        #expect(linkOnly.forJoinCode == ["fe80::1"], "a container bridge's link-local address is not the LAN's")
        #expect(linkOnly.bestForDirectJoin == "[fe80::1%lan0]")
    }

    @Test("The interface with the default route is announced first in its family; a container's veth with only a link-local address is not named")
    func defaultRouteFirst() {
        let ranked = LocalAddresses(ranking: [
            Address(interface: "eth1", address: "10.99.0.1", isIPv6: false),
            Address(interface: "eth1", address: "fd99::1", isIPv6: true),
            Address(interface: "wlan0", address: "192.168.1.20", isIPv6: false),
            Address(interface: "wlan0", address: "fd00::20", isIPv6: true),
            Address(interface: "veth9f2", address: "fe80::9", isIPv6: true),
        ], routing: ["wlan0"])
        #expect(ranked.announced.map(\.address) == ["192.168.1.20", "10.99.0.1", "fd00::20", "fd99::1"])
        #expect(ranked.leftOutText == nil)
    }
}
