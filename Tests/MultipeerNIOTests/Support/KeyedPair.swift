import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// Alice listening on 127.0.0.1 and Bob beside her, keyed sessions over TLS 1.3 in `scope`, not
/// yet connected (so that a test can start its event logs first); ``connect()`` invites and
/// waits until Alice has Bob, and may be called again after a drop.
struct KeyedPair: Sendable {
    let host: Session
    let guest: Session
    let port: Int

    init(in scope: SessionScope) async throws {
        let (alice, aliceTransport, _) = try SecureSessionTests.keyed("alice", bindHost: "127.0.0.1")
        let (bob, bobTransport, _) = try SecureSessionTests.keyed("bob")
        host = scope.session(localPeer: alice, transport: aliceTransport)
        guest = scope.session(localPeer: bob, transport: bobTransport)
        port = try await host.startListening(policy: .acceptAll)
    }

    func connect() async throws {
        let outcome = try await guest.invite(Endpoint(host: "127.0.0.1", port: port))
        #expect(outcome == .connected(host.localPeer))
        let (host, guest) = (host, guest)
        #expect(await eventually { host.connectedPeers == [guest.localPeer] })
    }
}
