import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("Listening: policies, limits, stopping", .timeLimit(.minutes(1)))
struct ListeningTests {
    @Test("An invitation asking for longer than the host's maximum is ended at the maximum")
    func maximumInvitationTimeout() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumInvitationTimeout = .milliseconds(300)
        let never = AsyncStream<Void>.makeStream()
        try await withTwoPeers(policy: .ask { _ in
            for await _ in never.stream {}
            return .accept
        }, configuration: configuration) { peers async throws in
            let invite = Task { try await peers.guest.invite(peers.endpoint, timeout: .seconds(30)) }
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connecting) != nil)
            await peers.network.advanceTime(by: configuration.maximumInvitationTimeout)
            #expect(peers.host.state(of: peers.guest.localPeer) == .connecting, "not ended before the host's maximum")
            await peers.network.advanceTime(by: .milliseconds(250))
            #expect(try await invite.value("the invitation") == .timedOut, "ended at the host's maximum, far sooner than the 30 s the guest asked for")
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected)?.reason == .invitationEnded)
            never.continuation.finish()
        }
    }

    @Test("A new invitation policy answers the invitations after it")
    func setInvitationPolicy() async throws {
        try await withTwoPeers { peers async throws in
            peers.host.setInvitationPolicy(.custom { _ in .decline(reason: "closed for the night") })
            #expect(try await peers.guest.invite(peers.endpoint) == .declined(reason: "closed for the night"))
            #expect(peers.host.connectedPeers.isEmpty)
            peers.host.setInvitationPolicy(.acceptAll)
            #expect(try await peers.guest.invite(peers.endpoint) == .connected(peers.host.localPeer))
        }
    }

    @Test("Stopping listening turns newcomers away and keeps connected peers; listening again works")
    func stopListening() async throws {
        try await withSessions { scope in
            try await withTwoPeers { peers async throws in
                try await peers.connect()
                await peers.host.stopListening()
                let carol = scope.session(localPeer: peer("carol"), transport: peers.network)
                let error = await #expect(throws: MultipeerError.self) { _ = try await carol.invite(peers.endpoint) }
                #expect(error?.code == .connectionFailed)
                #expect(peers.host.connectedPeers == [peers.guest.localPeer], "bob stays")
                try peers.guest.send(Chat(text: "still here"), to: [peers.host.localPeer])
                #expect(await peers.hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "still here") } != nil)
                let port = try await peers.host.startListening()
                #expect(try await carol.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(peers.host.localPeer))
                await carol.disconnect()
            }
        }
    }
}
