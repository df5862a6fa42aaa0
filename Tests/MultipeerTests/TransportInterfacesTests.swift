import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// The session reads the machine's interfaces through its transport, not from the system.
@Suite("A transport's interfaces", .timeLimit(.minutes(1)))
struct TransportInterfacesTests {
    /// An in-memory network that says this machine has `interfaces`.
    final class ReportingInterfaces: Transport, Sendable {
        let network: InMemoryNetwork
        let interfaces: [InterfaceAddress]
        init(_ network: InMemoryNetwork, _ interfaces: [InterfaceAddress]) { (self.network, self.interfaces) = (network, interfaces) }
        var clock: any SessionClock { network.clock }
        func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }
        func localInterfaces() -> [InterfaceAddress] { interfaces }
        func listen(port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) async throws(MultipeerError) -> any Listener {
            try await network.listen(port: port, options: options, makeHandler: makeHandler)
        }
        func connect(
            to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
        ) async throws(MultipeerError) -> any Connection {
            try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: handler)
        }
    }

    @Test("A peer's address on a network the transport says this machine is on is tried first; with no interfaces, the addresses go in the order given")
    func addressOnASharedNetworkFirst() async throws {
        for (interfaces, triedFirst) in [([InterfaceAddress(interface: "eth0", address: "192.168.1.5", prefixLength: 24, isIPv6: false, kind: .lan)], "the shared network's"), ([], "the given first")] {
            let network = InMemoryNetwork()
            let host = Session(localPeer: peer("alice"), transport: network)
            let guest = Session(localPeer: peer("bob"), transport: ReportingInterfaces(network, interfaces))
            let port = try await host.startListening(policy: .acceptAll)
            network.silence(port: 9)
            let game = DiscoveredPeer(
                peer: host.localPeer, endpoints: [try Endpoint(host: InMemoryNetwork.host, port: port), try Endpoint(host: "192.168.1.2", port: 9)],
                info: DiscoveryInfo())
            let invite = Task { try await guest.invite(game) }
            if interfaces.isEmpty {
                #expect(try await invite.value("the invitation") == .connected(host.localPeer), "\(triedFirst) answers at once")
                #expect(network.unansweredAttempts == 0, "the silent address was never tried")
            } else {
                #expect(await eventually { network.unansweredAttempts == 1 }, "\(triedFirst) address is tried first")
                await network.advanceTime(by: .milliseconds(250))
                #expect(try await invite.value("the invitation") == .connected(host.localPeer))
            }
            await guest.disconnect()
            await host.disconnect()
        }
    }
}
