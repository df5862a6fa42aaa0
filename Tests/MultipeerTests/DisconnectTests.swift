import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("Leaving and vanishing")
struct DisconnectTests {
    @Test("A guest that disconnects says goodbye and the host sees it leave")
    func guestLeaves() async throws {
        let peers = try await TwoPeers()
        try await peers.connect()
        await peers.guest.disconnect(reason: "bedtime")
        let change = await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected)
        #expect(change?.reason == .goodbye("bedtime"))
        #expect(peers.host.connectedPeers.isEmpty)
        #expect(peers.guestStates.all.last?.reason == .localDisconnect)
        await peers.host.disconnect()
    }

    @Test("The host can disconnect one guest; the guest hears why")
    func hostKicks() async throws {
        let peers = try await TwoPeers()
        try await peers.connect()
        peers.host.disconnect(peers.guest.localPeer, reason: "kicked")
        #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected)?.reason == .goodbye("kicked"))
        #expect(peers.guest.connectedPeers.isEmpty)
        #expect(peers.host.state(of: peers.guest.localPeer) == .notConnected)
        await peers.tearDown()
    }

    @Test("A peer that goes silent is found lost by heartbeats within 3 seconds")
    func vanished() async throws {
        let peers = try await TwoPeers()
        try await peers.connect()
        try await Task.sleep(for: .milliseconds(1500))
        #expect(peers.host.connectedPeers.count == 1, "heartbeats keep a quiet but live peer connected")
        let severed = ContinuousClock.now
        peers.network.severConnections(toPort: peers.port)
        let change = await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected, within: .seconds(6))
        let elapsed = ContinuousClock.now - severed
        guard case .lost(let error) = change?.reason else {
            Issue.record("expected the guest to be lost, got \(String(describing: change))")
            return
        }
        #expect(error.code == .peerTimedOut)
        #expect(elapsed < .seconds(3))
        #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected, within: .seconds(3)) != nil)
        await peers.tearDown()
    }

    @Test("A client that never says hello is dropped after the handshake deadline")
    func silentClient() async throws {
        var configuration = SessionConfiguration()
        configuration.handshakeTimeout = .milliseconds(300)
        let peers = try await TwoPeers(configuration: configuration)
        let raw = try await peers.network.openRawConnection(toPort: peers.port)
        try await Task.sleep(for: .milliseconds(150))
        #expect(!raw.isClosed)
        #expect(await eventually { raw.isClosed })
        #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "handshakeTimedOut" } != nil)
        await peers.tearDown()
    }

    @Test("Garbage instead of a hello closes the connection and is reported, never fatal")
    func garbage() async throws {
        let peers = try await TwoPeers()
        let raw = try await peers.network.openRawConnection(toPort: peers.port)
        raw.send(bytes: Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(await eventually { raw.isClosed })
        let data = try await peers.network.openRawConnection(toPort: peers.port)
        data.send(.data(messageType: "chat", payload: Data()))
        #expect(await eventually { data.isClosed })
        #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "protocolViolation" } != nil)
        try await peers.connect()
        await peers.tearDown()
    }

    @Test("A hello of another protocol version is declined with a reason")
    func otherVersion() async throws {
        let peers = try await TwoPeers()
        let raw = try await peers.network.openRawConnection(toPort: peers.port)
        raw.send(.hello(.init(version: 99, peer: peer("future"), invitationTimeoutMilliseconds: 1000, context: Data())))
        #expect(await eventually { raw.isClosed })
        guard case .decline(let decline) = raw.receivedFrames.first else {
            Issue.record("expected a decline, got \(raw.receivedFrames)")
            return
        }
        #expect(decline.cause == .unsupportedVersion)
        await peers.tearDown()
    }

    @Test("Disconnecting the host tells every guest goodbye")
    func hostLeaves() async throws {
        let peers = try await TwoPeers()
        try await peers.connect()
        await peers.host.disconnect(reason: "game over")
        #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected)?.reason == .goodbye("game over"))
        #expect(peers.hostStates.all.last?.reason == .localDisconnect)
        await peers.guest.disconnect()
    }
}
