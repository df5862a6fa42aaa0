import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// Sessions over real TCP on loopback: in one process, and against the `SessionPeer` test
/// program running as a separate process.
@Suite("Sessions over real TCP", .timeLimit(.minutes(2)))
struct SessionOverTCPTests {
    func loopback(_ port: Int) -> Endpoint { try! Endpoint(host: "127.0.0.1", port: port) }

    @Test("Two sessions shake hands and exchange typed messages both ways")
    func handshakeAndMessages() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"))
            let guest = scope.session(localPeer: peer("bob"), transport: TCPTransport())
            let hostData = EventLog(host.events, .dataReceived)
            let guestData = EventLog(guest.events, .dataReceived)
            let port = try await host.startListening(policy: .acceptAll)
            #expect(try await guest.invite(loopback(port), context: Data("hi".utf8)) == .connected(host.localPeer))
            #expect(await eventually { host.connectedPeers == [guest.localPeer] })
            for index in 0..<50 {
                try guest.send(Chat(text: "guess \(index)"), to: [host.localPeer])
                try host.send(Chat(text: "verdict \(index)"), to: [guest.localPeer])
            }
            #expect(await hostData.count(atLeast: 50) { _ in true } == 50)
            #expect(await guestData.count(atLeast: 50) { _ in true } == 50)
            #expect(try hostData.all.map { try $0.decode(Chat.self).text } == (0..<50).map { "guess \($0)" })
            #expect(try guestData.all.map { try $0.decode(Chat.self).text } == (0..<50).map { "verdict \($0)" })
            await guest.disconnect()
            await host.disconnect()
        }
    }

    @Test("A decline over TCP carries its reason")
    func declineOverTCP() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"))
            let port = try await host.startListening(policy: .custom { _ in .decline(reason: "game is full") })
            let guest = scope.session(localPeer: peer("bob"), transport: TCPTransport())
            #expect(try await guest.invite(loopback(port)) == .declined(reason: "game is full"))
            await guest.disconnect()
            await host.disconnect()
        }
    }

    @Test("A client that never finishes its handshake is dropped after the deadline")
    func silentClientDropped() async throws {
        var configuration = SessionConfiguration()
        configuration.handshakeTimeout = .seconds(1)
        let log = RecordingLogHandler.Store()
        let host = Session(
            localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"), configuration: configuration,
            logger: log.logger(label: "multipeer.session"))
        let port = try await host.startListening()
        let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
        try socket.write(Array(FrameCodec.encode(.heartbeat).bytes.prefix(2)))  // half a frame, then silence
        let started = ContinuousClock.now
        let (bytes, end) = await socket.readToEnd()
        let waited = ContinuousClock.now - started
        #expect(bytes.isEmpty)
        #expect(end == .closed)
        #expect(waited >= .milliseconds(900))
        #expect(await log.first { $0.level == .notice && $0["code"] == "handshakeTimedOut" } != nil)
        await host.disconnect()
    }

    @Test("A hello of another protocol version is declined over TCP")
    func versionMismatch() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"))
            let port = try await host.startListening()
            let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
            try socket.write(FrameCodec.encode(.hello(.init(version: 4, peer: peer("future"), invitationTimeoutMilliseconds: 1000, codeCommitment: SampleFrames.codeCommitment, context: Data()))).bytes)
            var decoder = FrameDecoder()
            decoder.append(await socket.readToEnd().bytes)
            guard case .decline(let decline) = try decoder.nextFrame() else {
                Issue.record("expected a decline")
                return
            }
            #expect(decline.cause == .unsupportedVersion)
            #expect(decline.reason?.contains("version 3") == true)
            await host.disconnect()
        }
    }

    @Test("Guests of a host in another process chat through it, and see it leave when killed")
    func hostProcessKilled() async throws {
        try await withSessions { scope in
            // Patient timeouts on every side (10 s): the loss must come from the closed sockets,
            // and a loaded machine must not drop anyone before the kill.
            let host = try ChildProcess(
                try builtExecutable(named: "SessionPeer"), ["host", "alice"],
                environment: ProcessInfo.processInfo.environment.merging(["SESSION_PEER_TIMEOUT_MS": "10000"]) { $1 })
            let banner = try #require(await host.line(containing: "on port"), "host output: \(host.text)")
            let port = try #require(Int(banner.split(separator: " ").first { $0.hasSuffix(".") && Int($0.dropLast()) != nil }?.dropLast() ?? ""))
            let bob = scope.session(localPeer: peer("bob"), transport: TCPTransport(), configuration: .notAboutTimeouts)
            let carol = scope.session(localPeer: peer("carol"), transport: TCPTransport(), configuration: .notAboutTimeouts)
            let bobStates = EventLog(bob.events, .stateChanged)
            let carolStates = EventLog(carol.events, .stateChanged)
            let carolData = EventLog(carol.events, .dataReceived)
            guard case .connected(let alice) = try await bob.invite(loopback(port)) else {
                Issue.record("bob could not join: \(host.text)")
                return
            }
            #expect(alice.displayName == "alice")
            #expect(try await carol.invite(loopback(port)) == .connected(alice))
            #expect(await host.line(containing: "carol joined") != nil)

            try bob.send(Chat(text: "is it 42?"), to: [alice])
            #expect(await host.line(containing: "bob: is it 42?") != nil)
            #expect(try await carolData.first { _ in true }?.decode(Chat.self) == Chat(text: "bob: is it 42?"))
            host.send(line: "welcome all")
            #expect(await carolData.first { (try? $0.decode(Chat.self))?.text == "alice: welcome all" } != nil)

            host.signal(SIGKILL)
            // The kernel closes a killed process's sockets: the guests hear the connection end,
            // long before any heartbeat timeout (10 s here) could have told them.
            let bobLost = await bobStates.waitFor(alice, .notConnected, within: .seconds(30))
            let carolLost = await carolStates.waitFor(alice, .notConnected, within: .seconds(30))
            for lost in [bobLost, carolLost] {
                guard case .lost(let error) = lost?.reason else {
                    Issue.record("expected the host to be lost, got \(String(describing: lost))")
                    continue
                }
                #expect(error.code == .connectionClosed, "closed by the kernel, not timed out")
            }
            #expect(bob.connectedPeers.isEmpty && carol.connectedPeers.isEmpty)
            await bob.disconnect()
            await carol.disconnect()
        }
    }

    @Test("A guest process that freezes is found lost by heartbeats within five timeouts; one that is killed by its closed socket")
    func guestProcessVanishes() async throws {
        try await withSessions { scope in
            // The same timers on both sides: a heartbeat every 500 ms, lost after 5 s of silence. (The
            // host's heartbeats are tasks of the test process, among every other test's: a loaded
            // machine may delay them by a few seconds, and that must not lose the guests.)
            var configuration = SessionConfiguration()
            configuration.heartbeatInterval = .milliseconds(500)
            configuration.peerTimeout = .seconds(5)
            let timers = ["SESSION_PEER_HEARTBEAT_MS": "500", "SESSION_PEER_TIMEOUT_MS": "5000"]
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"), configuration: configuration)
            let states = EventLog(host.events, .stateChanged)
            let data = EventLog(host.events, .dataReceived)
            let port = try await host.startListening()
            let frozen = try ChildProcess(try builtExecutable(named: "SessionPeer"), ["join", "frozen", "127.0.0.1:\(port)"], environment: timers)
            let killed = try ChildProcess(try builtExecutable(named: "SessionPeer"), ["join", "killed", "127.0.0.1:\(port)"], environment: timers)
            defer {
                frozen.signal(SIGKILL)
                killed.signal(SIGKILL)
            }
            #expect(await eventually(within: .seconds(30)) { host.connectedPeers.count == 2 },
                    "guests: \(frozen.text) \(killed.text); the host saw: \(states.all.map { "\($0.peer.displayName) \($0.state) \(String(describing: $0.reason))" })")
            let frozenPeer = try #require(host.connectedPeers.first { $0.displayName == "frozen" })
            let killedPeer = try #require(host.connectedPeers.first { $0.displayName == "killed" })

            frozen.send(line: "hello from a process")
            #expect(await data.first { (try? $0.decode(Chat.self))?.text == "hello from a process" } != nil)
            try host.send(Chat(text: "alice: hi frozen"), to: [frozenPeer])
            #expect(await frozen.line(containing: "alice: hi frozen") != nil)

            // Two peer timeouts of quiet: only heartbeats, both ways, keep the guests.
            try await Task.sleep(for: configuration.peerTimeout * 2)
            #expect(host.connectedPeers.count == 2, "heartbeats keep quiet guests connected")
            #expect(states.all.allSatisfy { $0.state != .notConnected }, "nobody was lost in between")

            let stopped = ContinuousClock.now
            frozen.signal(SIGSTOP)
            let lost = await states.waitFor(frozenPeer, .notConnected, within: configuration.peerTimeout * 10)
            let detection = ContinuousClock.now - stopped
            guard case .lost(let error) = lost?.reason else {
                Issue.record("expected the frozen guest to be lost, got \(String(describing: lost))")
                await host.disconnect()
                return
            }
            #expect(error.code == .peerTimedOut)
            #expect(detection < configuration.peerTimeout * 5, "within a generous multiple of the timeout")

            killed.signal(SIGKILL)
            let gone = await states.waitFor(killedPeer, .notConnected, within: .seconds(30))
            guard case .lost(let closed) = gone?.reason else {
                Issue.record("expected the killed guest to be lost, got \(String(describing: gone))")
                await host.disconnect()
                return
            }
            #expect(closed.code == .connectionClosed, "heard from the closed socket, not by a timeout")
            await host.disconnect()
        }
    }

    @Test("A guest process that ends its input says goodbye before it exits")
    func guestProcessLeaves() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"))
            let states = EventLog(host.events, .stateChanged)
            let port = try await host.startListening()
            let guest = try ChildProcess(try builtExecutable(named: "SessionPeer"), ["join", "dave", "127.0.0.1:\(port)"])
            #expect(await eventually { host.connectedPeers.count == 1 })
            let dave = try #require(host.connectedPeers.first)
            guest.closeInput()
            #expect(await guest.exitStatus() == 0)
            let left = await states.waitFor(dave, .notConnected)
            #expect(left?.reason == .goodbye(nil))
            await host.disconnect()
        }
    }
}
