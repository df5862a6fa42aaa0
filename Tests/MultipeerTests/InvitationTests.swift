import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

@Suite("Invitations over the in-memory network", .timeLimit(.minutes(1)))
struct InvitationTests {
    @Test("An accepted invitation connects both sides and each sees the other connect")
    func accepted() async throws {
        try await withTwoPeers { peers async throws in
            let outcome = try await peers.guest.invite(peers.endpoint)
            #expect(outcome == .connected(peers.host.localPeer))
            #expect(peers.guest.connectedPeers == [peers.host.localPeer])
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connected) != nil)
            #expect(peers.host.connectedPeers == [peers.guest.localPeer])
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected])
            #expect(peers.guestStates.states(of: peers.host.localPeer) == [.connecting, .connected])
            #expect(peers.host.state(of: peers.guest.localPeer) == .connected)
        }
    }

    @Test("A peer seen at several addresses is reached at the first that answers: one that never answers costs the attempt delay, not a timeout, and only one invitation arrives")
    func severalAddresses() async throws {
        try await withTwoPeers { peers async throws in
            let dead = try Endpoint(host: InMemoryNetwork.host, port: 9)
            peers.network.silence(port: 9)
            let game = DiscoveredPeer(peer: peers.host.localPeer, endpoints: [dead, peers.endpoint, peers.endpoint], info: DiscoveryInfo())
            let invite = Task { try await peers.guest.invite(game) }
            #expect(await eventually { peers.network.unansweredAttempts == 1 }, "the dead address is tried first")
            await peers.network.advanceTime(by: .milliseconds(249))
            #expect(peers.hostStates.states(of: peers.guest.localPeer).isEmpty, "the second address waits for the attempt delay")
            await peers.network.advanceTime(by: .milliseconds(1))
            #expect(try await invite.value("the invitation") == .connected(peers.host.localPeer))
            #expect(peers.network.unansweredAttempts == 1, "connected while the dead address's attempt still waits (for its 5 s): it was not waited for")
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connected) != nil)
            // The third address's turn comes 250 ms after the second's start: it gives way.
            await peers.network.advanceTime(by: .milliseconds(250))
            #expect(await eventually { peers.network.manualClock.sleeperCount == 1 }, "only the dead address's connect timeout is left")
            await peers.network.settle()
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected], "one invitation, one link")
            #expect(peers.host.connectedPeers == [peers.guest.localPeer])
        }
    }

    @Test("Cancelling the task that invites ends the attempts still connecting: the invitation ends as cancelled, without waiting for the connect timeout, and no attempt is left waiting")
    func cancelledWhileConnecting() async throws {
        try await withTwoPeers { peers async throws in
            peers.network.silence(port: 9)
            peers.network.silence(port: 10)
            let dead = [try Endpoint(host: InMemoryNetwork.host, port: 9), try Endpoint(host: InMemoryNetwork.host, port: 10)]
            let game = DiscoveredPeer(peer: peers.host.localPeer, endpoints: dead, info: DiscoveryInfo())
            let task = Task { try await peers.guest.invite(game, timeout: .seconds(60)) }
            #expect(await eventually { peers.network.unansweredAttempts == 1 })
            await peers.network.advanceTime(by: .milliseconds(250))
            while peers.network.unansweredAttempts < 2 { try await Task.sleep(for: .milliseconds(10)) }  // both addresses tried
            task.cancel()
            let result = await task.result
            #expect(throws: MultipeerError.cancelled) { try result.get() }
            while peers.network.unansweredAttempts > 0 { try await Task.sleep(for: .milliseconds(10)) }  // bounded by the suite's time limit
            #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected) != nil)
        }
    }

    @Test("A probe learns that a peer answers without inviting it; a peer that does not answer is an error")
    func probe() async throws {
        try await withTwoPeers { peers async throws in
            let game = DiscoveredPeer(peer: peers.host.localPeer, endpoints: [peers.endpoint], info: DiscoveryInfo())
            try await peers.guest.probe(game, timeout: .seconds(30))
            #expect(peers.guestStates.states(of: peers.host.localPeer).isEmpty, "nothing connects, nothing is connecting")
            #expect(try await peers.guest.invite(game) == .connected(peers.host.localPeer), "the host was left as it was")
            // The host posts `connected` after its ACCEPT has left: wait for it before reading the states.
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connected) != nil)
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected], "one invitation: the one after the probe")

            peers.network.silence(port: 9)
            let gone = DiscoveredPeer(peer: peers.host.localPeer, endpoints: [try Endpoint(host: InMemoryNetwork.host, port: 9)], info: DiscoveryInfo())
            let probe = Task { try await peers.guest.probe(gone, timeout: .milliseconds(300)) }
            #expect(await eventually { peers.network.unansweredAttempts == 1 })
            await peers.network.advanceTime(by: .milliseconds(300))
            let error = await #expect(throws: MultipeerError.self) { try await probe.value("the probe") }
            #expect(error?.code == .hostNotAnswering)
        }
    }

    @Test("A declined invitation reports the reason and leaves both sides unconnected")
    func declined() async throws {
        try await withTwoPeers(policy: .custom { _ in .decline(reason: "game is full") }) { peers async throws in
            let outcome = try await peers.guest.invite(peers.endpoint)
            #expect(outcome == .declined(reason: "game is full"))
            #expect(peers.guest.connectedPeers.isEmpty)
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected)?.reason == .invitationEnded)
            #expect(peers.host.connectedPeers.isEmpty)
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .notConnected])
        }
    }

    @Test("An invitation nobody answers times out once, and a late yes is ignored")
    func timedOut() async throws {
        try await withSessions { scope in
            let release = AsyncStream<Void>.makeStream()
            let answered = Locked(0)
            try await withTwoPeers(policy: .ask { _ in
                for await _ in release.stream { break }
                answered.withLock { $0 += 1 }
                return .accept
            }) { peers async throws in
                let invite = Task { try await peers.guest.invite(peers.endpoint, timeout: .milliseconds(400)) }
                #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connecting) != nil)
                await peers.network.advanceTime(by: .milliseconds(400))
                #expect(peers.host.state(of: peers.guest.localPeer) == .connecting, "undecided until the deadline has passed")
                await peers.network.advanceTime(by: .milliseconds(250))
                #expect(try await invite.value("the invitation") == .timedOut)
                #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected) != nil)
                release.continuation.yield()
                #expect(await eventually { answered.value == 1 }, "the policy said its late yes")
                // A later guest's invitation, answered after the late yes, shows the host went on
                // working; by then the late yes has had its chance to connect bob.
                let carol = scope.session(localPeer: peer("carol"), transport: peers.network)
                async let carolJoins = carol.invite(peers.endpoint)
                #expect(await peers.hostStates.waitFor(carol.localPeer, .connecting) != nil)
                release.continuation.yield()
                #expect(try await carolJoins == .connected(peers.host.localPeer))
                await carol.disconnect()
                #expect(!peers.host.connectedPeers.contains(peers.guest.localPeer))
                #expect(peers.guest.connectedPeers.isEmpty)
                #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .notConnected])
            }
        }
    }

    @Test("A peer's first messages are posted after its connected event, even when an ask policy accepts it")
    func connectedBeforeData() async throws {
        for _ in 0..<30 {
            try await withTwoPeers(policy: .ask { _ in .accept }) { peers async throws in
                let order = Locked<[String]>([])
                let guestPeer = peers.guest.localPeer
                let a = peers.host.events.observe(.stateChanged) { change in
                    if change.peer == guestPeer { order.withLock { $0.append(change.state.rawValue) } }
                }
                let b = peers.host.events.observe(.dataReceived) { _ in order.withLock { $0.append("data") } }
                let host = peers.host.localPeer
                let c = peers.guest.events.observe(.stateChanged) { change in
                    if change.state == .connected { try? peers.guest.send(Chat(text: "hi"), to: [host]) }
                }
                try await peers.connect()
                #expect(await eventually { order.value.contains("data") })
                #expect(order.value == ["connecting", "connected", "data"])
                withExtendedLifetime((a, b, c)) {}
            }
        }
    }

    @Test("A host sends a guest nothing before its ACCEPT: while the ACCEPT is being handed over, the guest is not among the connected peers, and a message to it is refused rather than sent first")
    func nothingBeforeAccept() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let gate = AcceptGate(network)
            let host = scope.session(localPeer: peer("alice"), transport: gate)
            let port = try await host.startListening(policy: .acceptAll)
            let guest = scope.session(localPeer: peer("bob"), transport: network)
            let joining = Task { try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) }
            _ = await gate.holding.wait(until: { $0 }, before: .now + .seconds(30))
            #expect(!host.connectedPeers.contains(guest.localPeer), "not connected before its ACCEPT is handed over")
            #expect(throws: MultipeerError.self, "nothing can be sent to it yet") { try host.send(Data("too soon".utf8), to: [guest.localPeer]) }
            gate.release()
            #expect(try await joining.value == .connected(host.localPeer), "the guest read its ACCEPT first")
            #expect(await eventually { host.connectedPeers.contains(guest.localPeer) })
            try host.send(Data("welcome".utf8), to: [guest.localPeer])
        }
    }

    @Test("An ask policy may answer later, and sees the inviter and its context")
    func askedLater() async throws {
        let seen = Mutex<Invitation?>(nil)
        try await withTwoPeers(policy: .ask { invitation in
            seen.withLock { $0 = invitation }
            try? await Task.sleep(for: .milliseconds(150))
            return .accept
        }) { peers async throws in
            let outcome = try await peers.guest.invite(peers.endpoint, context: Data("table 7".utf8))
            #expect(outcome == .connected(peers.host.localPeer))
            let invitation = try #require(seen.withLock { $0 })
            #expect(invitation.peer == peers.guest.localPeer)
            #expect(invitation.peer.displayName == "bob")
            #expect(String(decoding: invitation.context, as: UTF8.self) == "table 7")
        }
    }

    @Test("Inviting a closed port is an error that says so, not an outcome")
    func unreachable() async throws {
        try await withSessions { scope in
            let guest = scope.session(localPeer: peer("bob"), transport: InMemoryNetwork())
            let error = await #expect(throws: MultipeerError.self) {
                _ = try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: 9))
            }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains("memory:9") == true)
            await guest.disconnect()
        }
    }

    @Test("Context too large for one frame is refused before connecting")
    func oversizedContext() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumFrameLength = 1024
        try await withTwoPeers(configuration: configuration) { peers async throws in
            do {
                _ = try await peers.guest.invite(peers.endpoint, context: Data(count: 2000))
                Issue.record("expected an error")
            } catch let error as MultipeerError {
                #expect(error.code == .messageTooLarge)
            }
            #expect(try await peers.guest.invite(peers.endpoint, context: Data(count: 900)) == .connected(peers.host.localPeer))
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connected) != nil)
            // Had the refused invitation reached the host, it would have come first.
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected], "the host never heard of it")
        }
    }

    @Test("A peer cannot join while its earlier invitation is still being decided")
    func duplicateInvitationWhileDeciding() async throws {
        let release = AsyncStream<Void>.makeStream()
        try await withTwoPeers(policy: .ask { _ in
            for await _ in release.stream { break }
            return .accept
        }) { peers async throws in
            async let first = peers.guest.invite(peers.endpoint)
            // The first invitation is being decided once the host posts it as connecting.
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connecting) != nil)
            let second = try await peers.guest.invite(peers.endpoint)
            #expect(second == .declined(reason: "bob is already joining"))
            release.continuation.yield()
            #expect(try await first == .connected(peers.host.localPeer))
        }
    }

    @Test("A peer that reconnects with the same identity replaces its old link without a leave")
    func reconnectReplaces() async throws {
        try await withSessions { scope in
            try await withTwoPeers { peers async throws in
                try await peers.connect()
                let guestAgain = scope.session(localPeer: peers.guest.localPeer, transport: peers.network)
                let log = EventLog(guestAgain.events, .dataReceived)
                let outcome = try await guestAgain.invite(peers.endpoint)
                #expect(outcome == .connected(peers.host.localPeer))
                #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected) != nil)
                #expect(peers.host.connectedPeers == [peers.guest.localPeer])
                #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .connected])
                try peers.host.send(Chat(text: "still there?"), to: [peers.guest.localPeer])
                #expect(await log.first { $0.carries(Chat.self) } != nil)
                await guestAgain.disconnect()
            }
        }
    }

    @Test("Disconnecting the host turns away an invitation that is being decided")
    func hostLeavesWhileDeciding() async throws {
        try await withTwoPeers(policy: .ask { _ in
            try? await Task.sleep(for: .seconds(20))
            return .accept
        }) { peers async throws in
            async let outcome = peers.guest.invite(peers.endpoint)
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connecting) != nil)
            await peers.host.disconnect()
            #expect(try await outcome == .declined(reason: "the host is leaving"))
        }
    }

    @Test("Cancelling an invitation ends it with a cancellation error")
    func cancelled() async throws {
        try await withTwoPeers(policy: .ask { _ in
            try? await Task.sleep(for: .seconds(20))
            return .accept
        }) { peers async throws in
            let task = Task { try await peers.guest.invite(peers.endpoint) }
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connecting) != nil)
            task.cancel()
            let result = await task.result
            #expect(throws: MultipeerError.cancelled) { try result.get() }
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected) != nil)
        }
    }
}
