@testable import Multipeer
@testable import MultipeerPOSIX
import Testing

@Suite("The order a peer's addresses are tried in", .timeLimit(.minutes(1)))
struct EndpointOrderTests {
    let interfaces = [
        InterfaceAddress(interface: "lo", address: "127.0.0.1", prefixLength: 8, isIPv6: false),
        InterfaceAddress(interface: "wlan0", address: "192.168.1.20", prefixLength: 24, isIPv6: false),
        InterfaceAddress(interface: "wlan0", address: "fe80::20", prefixLength: 64, isIPv6: true),
        InterfaceAddress(interface: "wlan0", address: "fd00:1:2:3::20", prefixLength: 64, isIPv6: true),
        InterfaceAddress(interface: "docker0", address: "172.17.0.1", prefixLength: 16, isIPv6: false),
        InterfaceAddress(interface: "wg0", address: "10.8.0.2", prefixLength: 24, isIPv6: false),
    ]

    func endpoints(_ hosts: [String]) throws -> [Endpoint] {
        try hosts.map { try Endpoint(host: $0, port: 4000) }
    }

    @Test("Same subnet first, then IPv6 global and unique local, then IPv4 and names, then link-local with a scope, then link-local without one")
    func likeliestFirst() throws {
        let given = try endpoints([
            "fe80::5", "169.254.3.4", "fe80::7%wlan0", "10.1.2.3", "2001:db8::9", "gamehost.local",
            "192.168.1.30", "172.17.0.5", "fd00:1:2:3::30", "10.8.0.9",
        ])
        let sorted = EndpointOrder.sorted(given, near: interfaces).map(\.host)
        #expect(sorted == [
            "192.168.1.30", "fd00:1:2:3::30",  // on this machine's Wi-Fi, in the given order
            "2001:db8::9",  // IPv6 elsewhere
            "10.1.2.3", "gamehost.local", "172.17.0.5", "10.8.0.9",  // a container's or VPN's subnet is not the LAN
            "169.254.3.4", "fe80::7%wlan0",  // link-local, usable with a scope
            "fe80::5",  // no scope: no socket can reach it
        ])
    }

    @Test("This machine's own addresses count as near; with no interfaces known the given order stays")
    func loopbackAndNothingKnown() throws {
        let given = try endpoints(["10.9.9.9", "::1", "127.0.0.1"])
        #expect(EndpointOrder.sorted(given, near: interfaces).map(\.host) == ["::1", "127.0.0.1", "10.9.9.9"])
        let plain = try endpoints(["10.9.9.9", "10.9.9.8"])
        #expect(EndpointOrder.sorted(plain, near: []) == plain)
    }

    @Test("Addresses parse with and without a scope; prefixes compare bit by bit")
    func addressBytes() throws {
        let scoped = try #require(IPAddressBytes("fe80::1%lan0"))
        #expect(scoped.isIPv6 && scoped.isLinkLocal && scoped.scope == "lan0" && scoped.text == "fe80::1")
        #expect(IPAddressBytes("10.0.0.1%eth0") == nil, "IPv4 has no scope")
        #expect(IPAddressBytes("gamehost.local") == nil)
        let a = try #require(IPAddressBytes("10.77.154.10")), b = try #require(IPAddressBytes("10.77.155.10"))
        #expect(a.sharesPrefix(with: b, length: 23) && !a.sharesPrefix(with: b, length: 24))
        #expect(!a.sharesPrefix(with: scoped, length: 0), "families never match")
        #expect(try #require(IPAddressBytes("255.255.240.0")).leadingOnes == 20)
        #expect(try #require(IPAddressBytes("ffff:ffff:ffff:ffff::")).leadingOnes == 64)
    }

    @Test("When every address goes unanswered, the failure names them all; any other failure is reported as it is")
    func failuresOfEveryAttempt() throws {
        let (a, b) = (try Endpoint(host: "10.0.0.1", port: 4000), try Endpoint(host: "fd00::1", port: 4000))
        var silent = AttemptFailures(count: 2, last: .cancelled)
        #expect(silent.end(a, .hostNotAnswering([a], within: .seconds(5)), .seconds(5)) == nil)
        #expect(silent.end(b, .hostNotAnswering([b], within: .seconds(4)), .seconds(4)) == .hostNotAnswering([a, b], within: .seconds(5)))
        #expect(MultipeerError.hostNotAnswering([a, b], within: .seconds(5)).message.hasPrefix("Nothing answered at 10.0.0.1:4000 or [fd00::1]:4000 within 5 s"))

        var mixed = AttemptFailures(count: 2, last: .cancelled)
        _ = mixed.end(a, .hostNotAnswering([a], within: .seconds(5)), .seconds(5))
        let refused = MultipeerError.connectionFailed(b, "connection refused")
        #expect(mixed.end(b, refused, .seconds(5)) == refused)
    }
}

@Suite("Which interfaces carry the default route", .timeLimit(.minutes(1)))
struct DefaultRouteTests {
    @Test("IPv4 and IPv6 default routes count; other routes, loopback and reject routes do not")
    func fromProcNet() {
        let ipv4 = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            eth1\t0000630A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            """
        let ipv6 = """
            fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth1
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000002 00000000 00000003     usb0
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            """
        #expect(NetworkInterfaces.defaultRouteInterfaces(ipv4Routes: ipv4, ipv6Routes: ipv6) == ["wlan0", "usb0"])
    }
}
