import Foundation
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Limits per address count an IPv6 address with its whole /64: one machine can take any
/// address of its /64, so addresses of one /64 are one network's.
@Suite("Limits per network", .timeLimit(.minutes(1)))
struct NetworkLimitTests {
    @Test("The network a limit counts an address in", arguments: [
        ("10.0.0.2", "10.0.0.2"),
        ("2001:db8:0:1::5", "2001:db8:0:1::/64"),
        ("2001:0db8:0000:0001:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("::ffff:10.0.0.2", "10.0.0.2"),
        ("memory-client", "memory-client"),
    ])
    func limitGroup(address: String, network: String) {
        #expect(RemoteAddress.limitGroup(of: address) == network)
    }

    @Test("Silent connections from one /64 share its handshake places; another /64 is not held back")
    func handshakesPerSlash64() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumHandshakes = 64
        configuration.maximumHandshakesPerAddress = 3
        configuration.handshakeTimeout = .seconds(30)
        let network = InMemoryNetwork()
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: network, configuration: configuration)
            let port = try await host.startListening(policy: .acceptAll)
            var held: [RawConnection] = []
            for index in 1...6 {
                held.append(try await network.openRawConnection(toPort: port, from: "2001:db8:0:1::\(String(index, radix: 16))"))
            }
            #expect(await eventually { held.filter(\.isClosed).count == 3 }, "three of one /64's six were closed at once")
            let other = try await network.openRawConnection(toPort: port, from: "2001:db8:0:2::1")
            #expect(await eventually { host.handshakeCount(fromAddress: "2001:db8:0:2::1") == 1 }, "the other /64's connection is held")
            #expect(!other.isClosed)
            #expect(held.filter(\.isClosed).count == 3)
        }
    }

    @Test("Peers are counted for seat limits by network: three addresses of one /64 count as one network's three, another /64 apart")
    func peersPerSlash64() async throws {
        let network = InMemoryNetwork()
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: network)
            let port = try await host.startListening(policy: .acceptAll)
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
            for (index, address) in ["fd77::1:1", "fd77::1:2", "fd77::1:3", "fd77:0:0:2::1"].enumerated() {
                let guest = scope.session(localPeer: peer("guest\(index)"), transport: network.machine(address: address))
                #expect(try await guest.invite(endpoint) == .connected(host.localPeer))
            }
            #expect(await eventually { host.connectedPeers.count == 4 })
            #expect(host.peerCount(fromAddress: "fd77::1:99") == 3, "any address of the /64 counts its three")
            #expect(host.peerCount(fromAddress: "fd77::1:1") == 3)
            #expect(host.peerCount(fromAddress: "fd77:0:0:2::7") == 1)
            #expect(host.peerCount(fromAddress: "10.0.0.1") == 0)
        }
    }
}
