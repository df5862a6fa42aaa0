import Foundation
@testable import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// The limits on connections still in their handshake, over real TCP on loopback: clients from
/// other addresses of 127.0.0.0/8 stand for other machines.
@Suite("Handshake limits", .timeLimit(.minutes(2)))
struct HandshakeLimitTests {
    /// Four handshake places, three per address; handshakes that would otherwise last.
    static var tight: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.maximumHandshakes = 4
        configuration.maximumHandshakesPerAddress = 3
        configuration.handshakeTimeout = .seconds(30)
        return configuration
    }

    /// Opens a connection from `source` that never says hello, and waits until `host` holds it
    /// in its handshake, so that the host takes connections in the order they were opened. By
    /// default a read on it gives up after a second: enough to see that it is kept, not closed.
    func silent(_ port: Int, from source: String, heldBy host: Session, readTimeoutSeconds: Int = 1) async throws -> RawSocket {
        let before = host.handshakeCount(fromAddress: source)
        let socket = try RawSocket(port: port, from: source, readTimeoutSeconds: readTimeoutSeconds)
        #expect(await eventually { host.handshakeCount(fromAddress: source) > before }, "the host took the connection from \(source)")
        return socket
    }

    /// Opens a connection from `source` that the host is expected to refuse (close at once).
    func refused(_ port: Int, from source: String) throws -> RawSocket {
        try RawSocket(port: port, from: source, readTimeoutSeconds: 30)
    }

    @Test("With every handshake place taken, a newcomer gets the oldest silent place of the address holding the most")
    func newcomerEvictsTheHeaviestAddress() async throws {
        try await withSessions { scope in
            let log = RecordingLogHandler.Store()
            let host = scope.session(
                localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"), configuration: Self.tight,
                logger: log.logger(label: "multipeer.session"))
            let port = try await host.startListening(policy: .acceptAll)
            var flood: [RawSocket] = []
            // The first will be given up (its read waits for that), the others kept.
            flood.append(try await silent(port, from: "127.0.0.2", heldBy: host, readTimeoutSeconds: 30))
            for _ in 0..<2 { flood.append(try await silent(port, from: "127.0.0.2", heldBy: host)) }
            let other = try await silent(port, from: "127.0.0.3", heldBy: host)
            // A fourth from 127.0.0.2 is past its address's limit: closed at once.
            let past = try refused(port, from: "127.0.0.2")
            #expect(await past.readToEnd().end == .closed)
            #expect(await log.first { $0.level == .notice && $0.message.description.contains("too many handshakes") } != nil)

            // All four places are taken; a guest from 127.0.0.1 still joins.
            let guest = scope.session(localPeer: peer("bob"), transport: TCPTransport())
            #expect(try await guest.invite(try Endpoint(host: "127.0.0.1", port: port)) == .connected(host.localPeer))
            #expect(await flood[0].readToEnd().end == .closed, "the oldest place of the heaviest address was given up")
            #expect(await flood[1].readToEnd().end == .timedOut, "the others keep theirs")
            #expect(await other.readToEnd().end == .timedOut)
            await guest.disconnect()
            await host.disconnect()
        }
    }

    /// A peer named `name` and its transport: over TLS, with a key of its own.
    func side(_ name: String, tls: Bool, bindHost: String? = nil) throws -> (PeerID, TCPTransport) {
        guard tls else { return (peer(name), TCPTransport(bindHost: bindHost)) }
        let (peer, transport, _) = try SecureSessionTests.keyed(name, bindHost: bindHost)
        return (peer, transport)
    }

    @Test("With every handshake place taken by addresses holding one each, a newcomer waits unread and joins when a place frees",
          arguments: [false, true])
    func newcomerWaitsForAPlace(tls: Bool) async throws {
        try await withSessions { scope in
            let (alice, hostTransport) = try side("alice", tls: tls, bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: hostTransport, configuration: Self.tight)
            let port = try await host.startListening(policy: .acceptAll)
            var holders: [RawSocket] = []
            for index in 2...5 { holders.append(try await silent(port, from: "127.0.0.\(index)", heldBy: host)) }
            let (bob, guestTransport) = try side("bob", tls: tls)
            let guest = scope.session(localPeer: bob, transport: guestTransport)
            let joining = Task { try await guest.invite(try Endpoint(host: "127.0.0.1", port: port)) }
            #expect(await eventually { host.waitingCount() == 1 }, "the newcomer waits for a place")
            #expect(host.handshakeCount(fromAddress: "127.0.0.1") == 1, "it counts for its address while it waits")
            try await Task.sleep(for: .milliseconds(300))
            #expect(host.connectedPeers.isEmpty, "its HELLO is not read while every place is taken")
            holders[0].close()
            #expect(try await joining.value == .connected(host.localPeer), "it joins once a place is free")
            #expect(host.waitingCount() == 0)
            for holder in holders.dropFirst() { #expect(await holder.readToEnd().end == .timedOut, "the others keep their places") }
            await guest.disconnect()
            await host.disconnect()
        }
    }

    @Test("With every handshake place taken and every waiting place too, a newcomer is refused")
    func newcomerPastTheWaitingPlacesIsRefused() async throws {
        try await withSessions { scope in
            var configuration = Self.tight
            configuration.maximumWaitingConnections = 1
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"), configuration: configuration)
            let port = try await host.startListening(policy: .acceptAll)
            var holders: [RawSocket] = []
            for index in 2...5 { holders.append(try await silent(port, from: "127.0.0.\(index)", heldBy: host)) }
            let waiting = try await silent(port, from: "127.0.0.6", heldBy: host)
            #expect(host.waitingCount() == 1)
            let newcomer = try refused(port, from: "127.0.0.7")
            #expect(await newcomer.readToEnd().end == .closed)
            #expect(await waiting.readToEnd().end == .timedOut, "the one waiting keeps waiting")
            for holder in holders { #expect(await holder.readToEnd().end == .timedOut) }
            await host.disconnect()
        }
    }
}
