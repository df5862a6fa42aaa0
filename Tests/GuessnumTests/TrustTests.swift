import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// Trust between real `guessnum` processes over TLS on loopback: both people see the same
/// verification code, and nobody takes another player's seat by claiming their identity.
@Suite("Trust between real processes", .timeLimit(.minutes(2)))
struct TrustTests {
    /// A person's environment with no D-Bus: discovery fails with its sentence.
    static func person() -> [String: String] {
        personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]) { $1 }
    }

    func guessnum(_ arguments: [String], environment: [String: String] = person()) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment)
    }

    func listeningPort(of host: ChildProcess) async throws -> Int {
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        return try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "banner: \(banner)")
    }

    /// Alice hosts from `environment` and bob, a person of his own, plays her game once and
    /// quits: her host (still running), bob's environment, his known hosts file and what it says.
    func bobPlaysAlice(hostedIn environment: [String: String]) async throws -> (ChildProcess, [String: String], URL, String) {
        let bobsEnvironment = Self.person()
        let host = try guessnum(["host", "--name", "alice", "--secret", "7"], environment: environment)
        var handedOver = false
        defer { if !handedOver { host.signal(SIGKILL) } }  // a failure on the way leaves no host behind
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(try await listeningPort(of: host))"], environment: bobsEnvironment)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "First game with alice here") != nil, "bob: \(bob.text)")
        bob.closeInput()
        #expect(await bob.exitStatus() == 0)
        let knownHosts = URL(fileURLWithPath: try #require(bobsEnvironment["XDG_DATA_HOME"])).appendingPathComponent("guessnum/known_hosts")
        let remembered = try String(contentsOf: knownHosts, encoding: .utf8)
        handedOver = true
        return (host, bobsEnvironment, knownHosts, remembered)
    }

    /// The six digits in `line` ("… 123 456 …").
    static func code(in line: String) -> String? {
        line.firstMatch(of: /\d{3} \d{3}/).map { String($0.output) }
    }

    @Test("The player reads a verification code on joining, and the host sees the same next to the player's name in /players")
    func codesMatch() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        let player = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { player.signal(SIGKILL) }
        let shown = try #require(await player.line(containing: "Verification code with alice: "), "player: \(player.text)")
        let playerCode = try #require(Self.code(in: shown))
        #expect(await host.line(containing: "bob joined") != nil, "host: \(host.text)")

        host.send(line: "/players")
        var row: String?
        _ = await eventually { row = host.text.split(separator: "\n").last { $0.hasPrefix("bob ") && $0.contains("connected") }.map(String.init); return row != nil }
        let found = try #require(row, "host: \(host.text)")
        #expect(Self.code(in: found) == playerCode, "host row: \(found); player: \(shown)")

        // Another player has another code.
        let other = try guessnum(["join", "--name", "carol", "127.0.0.1:\(port)"])
        defer { other.signal(SIGKILL) }
        let otherLine = try #require(await other.line(containing: "Verification code with alice: "), "carol: \(other.text)")
        #expect(Self.code(in: otherLine) != playerCode)
    }

    @Test("A client claiming a player's identity without its key is turned away with a sentence; the player keeps the seat")
    func identityTakeoverIsRefused() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7", "--log-level", "notice"])
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        let bobsEnvironment = Self.person()
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: bobsEnvironment)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!") != nil, "bob: \(bob.text)")

        // Bob's identity, as every player learns it from the welcome: taken here from his key.
        let bobKeyFile = URL(fileURLWithPath: try #require(bobsEnvironment["XDG_CONFIG_HOME"]))
            .appendingPathComponent("guessnum/peer-identity-guest")
        let bobKey = try PeerKey(pemRepresentation: String(contentsOf: bobKeyFile, encoding: .utf8))
        let claim = try PeerID(displayName: "bob", identity: bobKey.fingerprint.identity)
        let hello = FrameCodec.encode(.hello(.init(peer: claim, invitationTimeoutMilliseconds: 5_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
        // A key of its own. Its HELLO goes out from the event loop as the handshake completes: a
        // test process whose tasks wait for a thread (the whole suite runs at once) would
        // otherwise send it past the host's 5 s for an introduction, and be dropped unanswered.
        let impostor = try await TLSRawSocket.connect(port: port, firstBytes: hello.bytes)
        var decoder = FrameDecoder()
        decoder.append(try #require(await impostor.readFrame(), "the host answers; host: \(host.text)"))
        guard case .decline(let decline) = try decoder.nextFrame() else {
            Issue.record("expected a refusal")
            return
        }
        #expect(decline.reason?.contains("claims an identity that its key does not prove") == true, "\(decline)")
        #expect(await host.line(containing: "code=peerNotProved") != nil, "logged: \(host.text)")

        // Bob is still playing.
        bob.send(line: "3")
        #expect(await bob.line(containing: "you guessed 3: too low") != nil, "bob: \(bob.text)")
        #expect(!host.text.contains("bob left"))
    }

    @Test("A private game by address or join code: a script joins with GUESSNUM_PASSWORD or is told to set it (exit 3); at a terminal both ask for the password; a host without a terminal or the variable says what it needs (exit 64)")
    func privateHostByAddressAndCode() async throws {
        let host = try guessnum(["host", "--password", "--name", "alice"], environment: Self.person().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 })
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        #expect(await host.line(containing: "The game is private: players need your password to join.") != nil, "host: \(host.text)")

        // A script, by address, with the password in the environment.
        let bobsHome = Self.person()
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: bobsHome.merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 })
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!") != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob joined") != nil, "host: \(host.text)")

        // A script, by address, without it.
        let carol = try guessnum(["join", "--name", "carol", "127.0.0.1:\(port)"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.exitStatus() == 3, "carol: \(carol.text)")
        #expect(carol.text.contains("The game at 127.0.0.1:\(port) is private: set GUESSNUM_PASSWORD to its password to join it from a script."), "carol: \(carol.text)")

        // At a terminal, by address: asked, hidden.
        let settings = Self.person().map { "\($0.key)=\($0.value)" }
        let dave = try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "join", "--name", "dave", "127.0.0.1:\(port)"])
        defer { dave.kill() }
        #expect(try await dave.waitForLastLine("Password for the game at 127.0.0.1:\(port) (not shown):"))
        try await dave.type("open sesame")
        try await dave.press("Enter")
        #expect(try await dave.waitFor("dave's welcome") { $0.contains { $0.contains("Welcome, dave!") } })
        #expect(try await dave.waitFor("no password on screen") { !$0.contains { $0.contains("open sesame") } })

        // At a terminal, by join code (made here for loopback, from the key bob remembered): asked too.
        let knownHosts = try String(contentsOfFile: bobsHome["XDG_DATA_HOME"]! + "/guessnum/known_hosts", encoding: .utf8)
        let fingerprint = try #require(knownHosts.split(separator: "\n").first { !$0.hasPrefix("#") }?.split(separator: " ").first)
        let identity = try #require(PeerFingerprint(hex: String(fingerprint))?.identity)
        let code = JoinCode(identity: identity, port: port, addresses: ["127.0.0.1"]).text
        let erinsSettings = Self.person().map { "\($0.key)=\($0.value)" }
        let erin = try await TmuxSession(["/usr/bin/env"] + erinsSettings + [try guessnumExecutable().path, "join", "--name", "erin", code])
        defer { erin.kill() }
        #expect(try await erin.waitForLastLine("Password for the game of this join code (not shown):"))
        try await erin.type("open sesame")
        try await erin.press("Enter")
        #expect(try await erin.waitFor("erin's welcome") { $0.contains { $0.contains("Welcome, erin!") } })

        let lost = try guessnum(["host", "--password", "--name", "carol"])
        defer { lost.signal(SIGKILL) }
        #expect(await lost.exitStatus() == 64, "host: \(lost.text)")
        #expect(lost.text.contains("--password needs a terminal to ask at, or the password in GUESSNUM_PASSWORD."), "host: \(lost.text)")
    }

    @Test("A player remembers a host's key on first contact; a host under that name with another key is refused, exit 3")
    func knownHostChanged() async throws {
        let bobsEnvironment = Self.person()
        let first = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { first.signal(SIGKILL) }
        let firstPort = try await listeningPort(of: first)
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(firstPort)"], environment: bobsEnvironment)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "First game with alice here: its key is remembered") != nil, "bob: \(bob.text)")
        bob.closeInput()
        #expect(await bob.exitStatus() == 0)
        let knownHosts = URL(fileURLWithPath: try #require(bobsEnvironment["XDG_DATA_HOME"])).appendingPathComponent("guessnum/known_hosts")
        #expect(try String(contentsOf: knownHosts, encoding: .utf8).contains(" alice\n"))

        // Someone else (another account, so another key) hosts as "alice".
        let second = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { second.signal(SIGKILL) }
        let secondPort = try await listeningPort(of: second)
        let again = try guessnum(["join", "--name", "bob", "127.0.0.1:\(secondPort)"], environment: bobsEnvironment)
        defer { again.signal(SIGKILL) }
        again.closeInput()
        #expect(await again.exitStatus() == 3, "bob: \(again.text)")
        #expect(again.text.contains("“alice” now has another key than when you last played with it"), "bob: \(again.text)")
        #expect(!again.text.contains("Welcome, bob!"))
    }

    @Test("One person hosting two games at once is one host: a player who knows the first joins the second without a question; someone else under that name is still refused")
    func onePersonTwoGames() async throws {
        let alicesEnvironment = Self.person()
        let (first, bobsEnvironment, knownHosts, remembered) = try await bobPlaysAlice(hostedIn: alicesEnvironment)
        defer { first.signal(SIGKILL) }

        // Alice hosts tic-tac-toe beside it, from the same account: another program, another key.
        let second = try guessnum(["host", "--name", "alice", "--game", "tictactoe"], environment: alicesEnvironment)
        defer { second.signal(SIGKILL) }
        let joined = try guessnum(["join", "--name", "bob", "127.0.0.1:\(try await listeningPort(of: second))"], environment: bobsEnvironment)
        defer { joined.signal(SIGKILL) }
        #expect(await joined.line(containing: "Joined alice's game of tic-tac-toe") != nil, "bob: \(joined.text)")
        joined.closeInput()
        #expect(await joined.exitStatus() == 0, "bob: \(joined.text)")
        #expect(!joined.text.contains("another key"), "bob: \(joined.text)")
        #expect(try String(contentsOf: knownHosts, encoding: .utf8) == remembered, "alice is remembered by her first key, once")

        // Someone else hosting as "alice" is still refused.
        let impostor = try guessnum(["host", "--name", "alice", "--game", "tictactoe"])
        defer { impostor.signal(SIGKILL) }
        let fooled = try guessnum(["join", "--name", "bob", "127.0.0.1:\(try await listeningPort(of: impostor))"], environment: bobsEnvironment)
        defer { fooled.signal(SIGKILL) }
        fooled.closeInput()
        #expect(await fooled.exitStatus() == 3, "bob: \(fooled.text)")
        #expect(fooled.text.contains("“alice” now has another key than when you last played with it"), "bob: \(fooled.text)")
    }

    @Test("A known host's name is not taken over by a lookalike, nor its key replaced by a join code: a script is refused (exit 3) and the known key kept")
    func lookalikeAndJoinCode() async throws {
        let (first, bobsEnvironment, knownHosts, remembered) = try await bobPlaysAlice(hostedIn: Self.person())
        defer { first.signal(SIGKILL) }

        // Someone else hosts as "Alice": by address, the lookalike name is held to alice's key.
        let secondEnvironment = Self.person()
        let second = try guessnum(["host", "--name", "Alice", "--secret", "7"], environment: secondEnvironment)
        defer { second.signal(SIGKILL) }
        let secondPort = try await listeningPort(of: second)
        let byAddress = try guessnum(["join", "--name", "bob", "127.0.0.1:\(secondPort)"], environment: bobsEnvironment)
        defer { byAddress.signal(SIGKILL) }
        byAddress.closeInput()
        #expect(await byAddress.exitStatus() == 3, "bob: \(byAddress.text)")
        #expect(byAddress.text.contains("“Alice” now has another key than when you last played with it"), "bob: \(byAddress.text)")

        // Its join code pins its key, but never in place of the one remembered for that name.
        let keyFile = URL(fileURLWithPath: try #require(secondEnvironment["XDG_CONFIG_HOME"])).appendingPathComponent("guessnum/peer-identity-host")
        let key = try PeerKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
        let code = JoinCode(identity: key.fingerprint.identity, port: secondPort, addresses: ["127.0.0.1"]).text
        let byCode = try guessnum(["join", code, "--name", "bob"], environment: bobsEnvironment)
        defer { byCode.signal(SIGKILL) }
        byCode.closeInput()
        #expect(await byCode.exitStatus() == 3, "bob: \(byCode.text)")
        #expect(byCode.text.contains("“Alice” now has another key than when you last played with it"), "bob: \(byCode.text)")
        #expect(!byCode.text.contains("Welcome, bob!"))
        #expect(try String(contentsOf: knownHosts, encoding: .utf8) == remembered, "the known key is kept")
    }
}
