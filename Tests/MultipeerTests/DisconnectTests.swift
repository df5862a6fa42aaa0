import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("Leaving and vanishing", .timeLimit(.minutes(1)))
struct DisconnectTests {
    @Test("A guest that disconnects says goodbye and the host sees it leave")
    func guestLeaves() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            await peers.guest.disconnect(reason: "bedtime")
            let change = await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected)
            #expect(change?.reason == .goodbye("bedtime"))
            #expect(peers.host.connectedPeers.isEmpty)
            #expect(peers.guestStates.all.last?.reason == .localDisconnect)
        }
    }

    @Test("The host can disconnect one guest; the guest hears why")
    func hostKicks() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            peers.host.disconnect(peers.guest.localPeer, reason: "kicked")
            #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected)?.reason == .goodbye("kicked"))
            #expect(peers.guest.connectedPeers.isEmpty)
            #expect(peers.host.state(of: peers.guest.localPeer) == .notConnected)
        }
    }

    @Test("Heartbeats keep a quiet but live peer connected through two peer timeouts")
    func quietPeerStays() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            // Nobody sends anything for two peer timeouts: only heartbeats can keep the link.
            await peers.network.advanceTime(by: peers.host.configuration.peerTimeout * 2)
            #expect(peers.host.connectedPeers == [peers.guest.localPeer], "the host still sees the guest")
            #expect(peers.guest.connectedPeers == [peers.host.localPeer], "the guest still sees the host")
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected], "never lost in between")
            #expect(peers.guestStates.states(of: peers.host.localPeer) == [.connecting, .connected], "never lost in between")
        }
    }

    @Test("A peer silent for the peer timeout (2.5 s) is still connected; by the next check (a quarter of a heartbeat later) it is lost, on both sides")
    func vanished() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let timeout = peers.host.configuration.peerTimeout
            peers.network.severConnections(toPort: peers.port)
            await peers.network.advanceTime(by: timeout)
            #expect(peers.host.connectedPeers == [peers.guest.localPeer], "silent for exactly the timeout: not yet lost")
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected])
            await peers.network.advanceTime(by: peers.host.configuration.heartbeatInterval / 4)
            let change = peers.hostStates.all.last { $0.peer == peers.guest.localPeer }
            guard case .lost(let error)? = change?.reason, change?.state == .notConnected else {
                Issue.record("expected the guest to be lost, got \(String(describing: change))")
                return
            }
            #expect(error.code == .peerTimedOut)
            #expect(peers.guestStates.all.last { $0.peer == peers.host.localPeer }?.state == .notConnected, "the guest found the host lost too")
        }
    }

    @Test("A peer accepted after a decision longer than the peer timeout is not taken for gone at once: its silence counts from the acceptance")
    func slowDecision() async throws {
        let release = AsyncStream<Void>.makeStream()
        try await withTwoPeers(policy: .ask { _ in
            for await _ in release.stream { break }
            return .accept
        }) { peers async throws in
            let timeout = peers.host.configuration.peerTimeout
            let carol = peer("carol")
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(.hello(.init(
                version: 3, peer: carol, invitationTimeoutMilliseconds: 30_000, codeCommitment: SampleFrames.codeCommitment,
                features: 0, context: Data())))
            #expect(await peers.hostStates.waitFor(carol, .connecting) != nil)
            // The host takes longer than the peer timeout to decide (a busy host, a person asked).
            await peers.network.advanceTime(by: timeout + .seconds(1))
            release.continuation.yield()
            #expect(await peers.hostStates.waitFor(carol, .connected) != nil)
            // The next check comes before carol's first frame after the ACCEPT.
            await peers.network.advanceTime(by: peers.host.configuration.heartbeatInterval / 4)
            #expect(peers.host.connectedPeers.contains(carol), "silent for a quarter of a heartbeat since its acceptance")
            #expect(peers.hostStates.states(of: carol) == [.connecting, .connected])
            await peers.network.advanceTime(by: timeout)
            #expect(!peers.host.connectedPeers.contains(carol), "silent for the peer timeout since its acceptance: gone")
            withExtendedLifetime(raw) {}
        }
    }

    @Test("A client that never says hello is dropped at the handshake deadline (5 s), not before")
    func silentClient() async throws {
        try await withTwoPeers { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            await peers.network.advanceTime(by: peers.host.configuration.handshakeTimeout)
            #expect(!raw.isClosed, "open until the deadline has passed")
            await peers.network.advanceTime(by: .milliseconds(250))
            #expect(raw.isClosed, "closed at the first check past the deadline")
            #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "handshakeTimedOut" } != nil)
        }
    }

    @Test("Garbage instead of a hello closes the connection and is reported, never fatal")
    func garbage() async throws {
        try await withTwoPeers { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(bytes: Array("GET / HTTP/1.1\r\n\r\n".utf8))
            #expect(await eventually { raw.isClosed })
            let data = try await peers.network.openRawConnection(toPort: peers.port)
            data.send(.data(messageType: "chat", payload: Data()))
            #expect(await eventually { data.isClosed })
            #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "protocolViolation" } != nil)
            try await peers.connect()
        }
    }

    @Test("A flood of heartbeats is cut off as a protocol violation; a few in a second are not")
    func heartbeatFlood() async throws {
        try await withTwoPeers { peers async throws in
            let calm = try await peers.network.openRawConnection(toPort: peers.port)
            calm.send(.hello(.init(peer: peer("calm"), invitationTimeoutMilliseconds: 5_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
            calm.send(SampleFrames.freshResume)
            for _ in 0..<5 { calm.send(.heartbeat) }
            let flood = try await peers.network.openRawConnection(toPort: peers.port)
            flood.send(.hello(.init(peer: peer("flood"), invitationTimeoutMilliseconds: 5_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
            for _ in 0..<1_000 { flood.send(.heartbeat) }
            #expect(await eventually { flood.isClosed })
            #expect(flood.receivedFrames.last == .goodbye(reason: "protocol violation"))
            #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "protocolViolation" } != nil)
            calm.send(.data(messageType: "chat", payload: Data("still here".utf8)))
            let hostData = EventLog(peers.host.events, .dataReceived)
            calm.send(.data(messageType: "chat", payload: Data("and again".utf8)))
            #expect(await hostData.first { $0.payload == Data("and again".utf8) } != nil)
            #expect(!calm.isClosed)
        }
    }

    @Test("A hello of another protocol version is declined with a reason")
    func otherVersion() async throws {
        try await withTwoPeers { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(.hello(.init(version: 99, peer: peer("future"), invitationTimeoutMilliseconds: 1000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
            #expect(await eventually { raw.isClosed })
            guard case .decline(let decline) = raw.receivedFrames.first else {
                Issue.record("expected a decline, got \(raw.receivedFrames)")
                return
            }
            #expect(decline.cause == .unsupportedVersion)
        }
    }

    @Test("A version 1 hello (an older release, with no code commitment) is declined politely, naming both versions")
    func olderRelease() async throws {
        try await withTwoPeers { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(.hello(.init(version: 1, peer: peer("older"), invitationTimeoutMilliseconds: 1000, codeCommitment: [], context: Data())))
            #expect(await eventually { raw.isClosed })
            guard case .decline(let decline) = raw.receivedFrames.first else {
                Issue.record("expected a decline, got \(raw.receivedFrames)")
                return
            }
            #expect(decline.cause == .unsupportedVersion)
            #expect(decline.reason == "this host speaks protocol version 3, not 1")
        }
    }

    @Test("A version 2 hello (the release before byte streams) is declined politely, naming both versions")
    func releaseBeforeStreams() async throws {
        try await withTwoPeers { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(.hello(.init(
                version: 2, peer: peer("older"), invitationTimeoutMilliseconds: 1000, codeCommitment: SampleFrames.codeCommitment, features: 0,
                context: Data())))
            #expect(await eventually { raw.isClosed })
            guard case .decline(let decline) = raw.receivedFrames.first else {
                Issue.record("expected a decline, got \(raw.receivedFrames)")
                return
            }
            #expect(decline.cause == .unsupportedVersion)
            #expect(decline.reason == "this host speaks protocol version 3, not 2")
        }
    }

    @Test("Disconnecting the host tells every guest goodbye")
    func hostLeaves() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            await peers.host.disconnect(reason: "game over")
            #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected)?.reason == .goodbye("game over"))
            #expect(peers.hostStates.all.last?.reason == .localDisconnect)
        }
    }
}
