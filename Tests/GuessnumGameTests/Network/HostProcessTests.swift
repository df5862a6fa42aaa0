import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// A real `guessnum host` process over real loopback TCP, played by guests in this process:
/// what a host does when its terminal stops draining, and when one guest floods it.
@Suite("A real host process under hostile guests", .serialized, .timeLimit(.minutes(2)))
struct HostProcessTests {
    /// No D-Bus: discovery fails with its sentence instead of touching a real network.
    static func environment() -> [String: String] {
        personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]) { $1 }
    }

    /// A host process (secret 100 in 1–100, so every guess below is too low) and its port.
    func startHost() async throws -> (ChildProcess, Int) {
        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--secret", "100"], environment: Self.environment())
        let banner = try #require(await host.line(containing: "directly: ", within: .seconds(30)), "host: \(host.text)")
        let port = try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "banner: \(banner)")
        return (host, port)
    }

    /// A guest in this process with a key of its own, joined to the host at `port` over TLS and welcomed.
    func join(_ name: String, port: Int) async throws -> Guest {
        let key = PeerKey.generate()
        let guest = Guest(session: Session(localPeer: try key.peer(displayName: name), transport: TCPTransport(credentials: try TLSCredentials(key: key))))
        let outcome = try await guest.session.invite(try Endpoint(host: "127.0.0.1", port: port))
        guard case .connected = outcome else { throw TestFailure("\(name) could not join: \(outcome)") }
        guard await guest.welcomes.first(where: { _ in true }) != nil else { throw TestFailure("\(name) was never welcomed") }
        return guest
    }

    @Test("With its standard output a pipe nobody reads, the host keeps answering guesses; when the reader is back it says what it skipped")
    func blockedStandardOutput() async throws {
        let (host, port) = try await startHost()
        defer { host.signal(SIGKILL) }
        let bob = try await join("bob", port: port)
        var joined: [Guest] = []
        for name in ["carol", "dave", "erin", "frank", "grace", "heidi"] { joined.append(try await join(name, port: port)) }
        host.pauseReading()

        // Chat lines of 2 KB (499 four-byte characters, within both limits), 60 KB a second, fill
        // the host's output pipe within a second or two, and keep it full.
        let line = String(repeating: "🎲", count: 499)
        let talkers = joined
        let talking = Task.detached {
            while !Task.isCancelled {
                for talker in talkers { try? talker.game.say(line) }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { talking.cancel() }
        #expect(await eventually(within: .seconds(30)) { host.unreadOutputBytes >= 60_000 }, "the pipe fills: \(host.unreadOutputBytes) bytes")
        try await Task.sleep(for: .milliseconds(500))   // blocked for a while, not just filled

        // When each verdict arrives, taken as it is posted (the logs are polled, so they are late).
        let arrivals = Locked<[Int64: ContinuousClock.Instant]>([:])
        let timing = bob.game.events.observe(.verdict) { verdict in
            if verdict.player.id == bob.id { arrivals.withLock { $0[verdict.guess] = ContinuousClock.now } }
        }
        defer { timing.cancel() }
        var latencies: [Duration] = []
        for guess: Int64 in 1...30 {
            let sent = ContinuousClock.now
            try bob.game.guess(guess)
            let verdict = await bob.verdicts.first(within: .seconds(30)) { $0.guess == guess && $0.player.id == bob.id }
            #expect(verdict?.verdict == .tooLow, "guess \(guess) is answered while the host's output is blocked")
            guard verdict != nil else { break }
            if let arrived = arrivals.value[guess] { latencies.append(arrived - sent) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(host.unreadOutputBytes >= 60_000, "still blocked at the end")
        let sorted = latencies.sorted()
        if !sorted.isEmpty {
            print("verdict latency with the host's stdout blocked: median \(sorted[sorted.count / 2]), 95th percentile \(sorted[sorted.count * 95 / 100]), max \(sorted.last!), n \(sorted.count)")
        }

        // More than the host keeps for its terminal (256 KiB) waits by now, or soon.
        try await Task.sleep(for: .seconds(3))
        talking.cancel()
        host.resumeReading()
        #expect(await host.line(containing: "lines skipped: the terminal fell behind.", within: .seconds(30)) != nil, "the skipped lines are summarised")
        for guest in [bob] + talkers { await guest.session.disconnect() }
    }

    @Test("An unknown-message flood from one guest is cut off with a reason while an honest guest keeps playing")
    func unknownFlood() async throws {
        let (host, port) = try await startHost()
        defer { host.signal(SIGKILL) }
        let flooder = try await join("flood", port: port)
        let honest = try await join("carol", port: port)
        let flooderLink = EventLog(flooder.session.events, .stateChanged)
        let hostPeer = try #require(flooder.game.host)

        let flood = Task.detached {
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while sent < 200_000, ContinuousClock.now < deadline, flooder.session.state(of: hostPeer) == .connected {
                do { try flooder.session.send(Data("{}".utf8), messageType: "guessnum.v1.teleport", to: [hostPeer]) } catch { break }
                sent += 1
                if sent % 100 == 0 { try? await Task.sleep(for: .milliseconds(10)) }  // up to 10,000 a second
            }
            return sent
        }
        var guess: Int64 = 1
        while flooder.session.state(of: hostPeer) == .connected, guess <= 60 {
            try honest.game.guess(guess)
            #expect(await honest.verdicts.first(within: .seconds(30)) { $0.guess == guess && $0.player.id == honest.id }?.verdict == .tooLow,
                    "carol is answered during the flood")
            guess += 1
            try await Task.sleep(for: .milliseconds(250))
        }
        let gone = try #require(await flooderLink.first(within: .seconds(30)) { $0.state == .notConnected }, "the flooder is disconnected")
        #expect(gone.reason == .goodbye(GameError.messageFlood(perSecond: RoomConfiguration().messagesPerSecond).message), "told why: \(String(describing: gone.reason))")
        let sent = await flood.value
        #expect(sent < 200_000)
        try honest.game.guess(99)
        #expect(await honest.verdicts.first(within: .seconds(30)) { $0.guess == 99 } != nil, "the game goes on")
        await honest.session.disconnect()
    }
}
