import Foundation
import MultipeerTestSupport
import Testing

/// The whole program as people use it, on the test LAN: a host and three players on four
/// machines (network namespaces), players finding the game through Avahi, driven through the
/// programs' plain-line mode (standard input is not a terminal).
@Suite("guessnum on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.game), .timeLimit(.minutes(3)))
struct GameOverLANTests {
    let lan = TestLAN.game

    @Test("A host and three players: found through Avahi, guesses answered, chat relayed, a win announced, /players right, /visible off hides the game")
    func wholeGame() async throws {
        let host = try lan.guessnum(on: 0, ["host", "--range", "1-100", "--secret", "42", "--name", "alice"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting alice's game") != nil, "host: \(host.text)")

        var players: [ChildProcess] = []
        defer { for player in players { player.signal(SIGKILL) } }
        for (index, name) in ["bob", "carol", "dave"].enumerated() {
            let player = try lan.guessnum(on: index + 1, ["join", "--game", "alice", "--name", name])
            players.append(player)
            #expect(await player.line(containing: "Welcome, \(name)!") != nil, "\(name): \(player.text)")
        }
        let (bob, carol, dave) = (players[0], players[1], players[2])
        #expect(await host.line(containing: "dave joined") != nil)

        bob.send(line: "50")
        #expect(await bob.line(containing: "you guessed 50: too high") != nil, "bob: \(bob.text)")
        #expect(await carol.line(containing: "bob guessed 50: too high") != nil, "carol: \(carol.text)")
        #expect(await dave.line(containing: "bob guessed 50: too high") != nil)
        #expect(await host.line(containing: "bob guessed 50: too high") != nil)

        carol.send(line: "anyone below 50?")
        #expect(await bob.line(containing: "carol: anyone below 50?") != nil)
        #expect(await host.line(containing: "carol: anyone below 50?") != nil)
        host.send(line: "good luck")
        #expect(await dave.line(containing: "alice: good luck") != nil, "dave: \(dave.text)")

        host.send(line: "/players")
        #expect(await host.line(containing: "guesses this round") != nil, "host: \(host.text)")
        let rows = { host.text.split(separator: "\n").filter { $0.contains("connected") }.map(String.init) }
        #expect(await eventually { rows().count >= 3 }, "host: \(host.text)")
        for name in ["bob", "carol", "dave"] {
            #expect(rows().contains { $0.hasPrefix(name + " ") }, "no row for \(name): \(rows())")
        }
        // name, state, wins, guesses this round, and the verification code ("123 456").
        let bobsRow = rows().first { $0.hasPrefix("bob ") }?.split(separator: " ").map(String.init) ?? []
        #expect(bobsRow.count == 6 && bobsRow[3] == "1", "bob guessed once this round: \(rows())")
        #expect(rows().allSatisfy { $0.contains(/\d{3} \d{3}$/) }, "every player has a verification code: \(rows())")

        host.send(line: "/visible off")
        #expect(await host.line(containing: "The game is no longer announced") != nil)
        try await Task.sleep(for: .seconds(2))  // the goodbye takes about a second to land
        let latecomer = try lan.guessnum(on: 1, ["join", "--game", "alice", "--name", "erin", "--timeout", "4"])
        #expect(await latecomer.exitStatus(within: .seconds(30)) == 3)
        #expect(latecomer.text.contains("No game called “alice” was found within 4 s."), "erin: \(latecomer.text)")

        dave.send(line: "42")
        #expect(await dave.line(containing: "you guessed 42: correct! You win round 1.") != nil, "dave: \(dave.text)")
        #expect(await bob.line(containing: "dave won round 1") != nil, "bob: \(bob.text)")
        #expect(await carol.line(containing: "Round 1: the reveal matches the commitment and every verdict; the host chose this secret itself") != nil,
                "carol is told the host chose the secret (--secret): \(carol.text)")
        #expect(await host.line(containing: "dave won round 1") != nil)
        #expect(await bob.line(containing: "Round 2 starts") != nil)

        bob.closeInput()
        #expect(await bob.exitStatus() == 0)
        #expect(await host.line(containing: "bob left") != nil)
    }

    @Test("Nothing of a game is readable on the wire: a capture of a real game on the LAN shows only TLS records")
    func captureShowsOnlyTLS() async throws {
        let capture = Scratch.path("guessnum-capture", suffix: ".pcap")
        defer { try? FileManager.default.removeItem(at: capture) }
        // TCP on the host's LAN interface, written packet by packet; as root, so that it may
        // write where the test reads.
        let tcpdump = try lan.start(on: 0, ["tcpdump", "-i", "lan0", "-U", "-Z", "root", "-s", "0", "-w", capture.path, "tcp"])
        defer { tcpdump.signal(SIGKILL) }
        #expect(await tcpdump.line(containing: "listening on lan0") != nil, "tcpdump: \(tcpdump.text)")

        // A name of its own: a host of an earlier test on this LAN, killed without a goodbye, may
        // still be listed as "alice" meanwhile (with another key), and a busy machine may list
        // it first.
        let host = try lan.guessnum(on: 0, ["host", "--range", "1-100", "--secret", "42", "--name", "cleo"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting cleo's game") != nil, "host: \(host.text)")
        // A name long enough not to turn up in random ciphertext (a 3-byte "bob" did, 1 run in 20).
        let bob = try lan.guessnum(on: 1, ["join", "--game", "cleo", "--name", "bartholomew"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bartholomew!") != nil, "bob: \(bob.text)")
        bob.send(line: "the magic word is swordfish")
        #expect(await host.line(containing: "swordfish") != nil)
        bob.send(line: "50")
        #expect(await bob.line(containing: "you guessed 50: too high") != nil)
        bob.send(line: "42")
        #expect(await bob.line(containing: "the reveal matches the commitment") != nil, "bob: \(bob.text)")
        try await Task.sleep(for: .milliseconds(500))
        tcpdump.signal(SIGINT)
        _ = await tcpdump.exitStatus(within: .seconds(30))

        let bytes = try [UInt8](Data(contentsOf: capture))
        #expect(bytes.count > 2_000, "the game was captured: \(bytes.count) bytes; tcpdump: \(tcpdump.text)")
        for secret in ["swordfish", "guessnum.v1", "bartholomew", "cleo", "GNMP"] {
            #expect(!Self.contains(bytes, Array(secret.utf8)), "“\(secret)” is readable on the wire")
        }
        #expect(Self.contains(bytes, [0x16, 0x03, 0x01]), "a TLS ClientHello record")
        #expect(Self.contains(bytes, [0x17, 0x03, 0x03]), "TLS application-data records")
    }

    @Test("Trust on the LAN: a wrong password is turned away and the right one admitted, both sides show the same code, and a host with another key under the same name is refused in --game mode")
    func trustOnTheLAN() async throws {
        let alice = personEnvironment().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 }
        let bob = personEnvironment()
        let host = try lan.guessnum(on: 0, ["host", "--password", "--secret", "42", "--name", "alice"], environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "The game is private") != nil, "host: \(host.text)")
        // Games of the tests before may linger in the caches for a moment: wait for this one.
        #expect(try await listing(on: 1) { text in
            let resolved = text.split(separator: "\n").filter { $0.hasPrefix("=") }
            return !resolved.isEmpty && resolved.allSatisfy { $0.contains("\"k=1\"") }
        }, "bob's machine lists the private game, and only it")

        let join = { (password: String, timeout: String) in
            try self.lan.start(
                on: 1, [try guessnumExecutable().path, "join", "--game", "alice", "--name", "bob", "--timeout", timeout],
                environment: bob.merging(["GUESSNUM_PASSWORD": password]) { $1 })
        }
        let wrong = try join("open says me", "30")
        defer { wrong.signal(SIGKILL) }
        #expect(await wrong.exitStatus(within: .seconds(40)) == 3, "bob: \(wrong.text)")
        #expect(wrong.text.contains("alice could not prove it knows this password: either the password is wrong"), "bob: \(wrong.text)")
        #expect(!host.text.contains("bob joined"))

        let right = try join("open sesame", "30")
        defer { right.signal(SIGKILL) }
        let codeLine = try #require(await right.line(containing: "Verification code with alice: "), "bob: \(right.text)")
        #expect(await right.line(containing: "Welcome, bob!") != nil, "bob: \(right.text)")
        host.send(line: "/players")
        var row: String?
        _ = await eventually { row = host.text.split(separator: "\n").last { $0.hasPrefix("bob ") && $0.contains("connected") }.map(String.init); return row != nil }
        let hostRow = try #require(row, "host: \(host.text)")
        #expect(hostRow.firstMatch(of: /\d{3} \d{3}/)?.output == codeLine.firstMatch(of: /\d{3} \d{3}/)?.output, "host: \(hostRow); bob: \(codeLine)")
        right.closeInput()
        #expect(await right.exitStatus() == 0)
        // The host ends its game; its announcement is withdrawn (the goodbye takes about a second).
        host.send(line: "/quit")
        #expect(await host.exitStatus() == 0, "host: \(host.text)")
        try await Task.sleep(for: .seconds(2))

        // Someone else (another key) now hosts a game called "alice" on another machine.
        let impostor = try lan.guessnum(on: 2, ["host", "--secret", "42", "--name", "alice"], environment: personEnvironment())
        defer { impostor.signal(SIGKILL) }
        #expect(await impostor.line(containing: "Hosting alice's game") != nil, "impostor: \(impostor.text)")
        // Bob's machine may still hold the first game's TXT record for a few seconds (its
        // avahi-daemon's cache, measured here at about 2.5 s): --game should meet the new key.
        #expect(try await listing(on: 1) { text in
            let resolved = text.split(separator: "\n").filter { $0.hasPrefix("=") }
            return !resolved.isEmpty && !resolved.contains { $0.contains("\"k=1\"") }
        }, "bob's machine lists the new game, and only it")
        let fooled = try join("open sesame", "15")
        defer { fooled.signal(SIGKILL) }
        #expect(await fooled.exitStatus(within: .seconds(30)) == 3, "bob: \(fooled.text)")
        #expect(fooled.text.contains("“alice” now has another key than when you last played with it"), "bob: \(fooled.text)")
        #expect(!fooled.text.contains("Welcome, bob!"))
        #expect(!impostor.text.contains("bob joined"))
    }

    /// The port `host` listens on, from its banner ("… directly: … ADDRESS:PORT").
    func listeningPort(of host: ChildProcess) async throws -> Int {
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        return try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "banner: \(banner)")
    }

    /// `RelayPeer` on machine 2, relaying to `port` on machine 0: its port and the identity it
    /// shows inviters.
    func startRelay(toPort port: Int) async throws -> (ChildProcess, port: Int, identity: String) {
        let relay = try lan.start(on: 2, [try builtExecutable(named: "RelayPeer").path, "\(try await lan.address(of: 0)):\(port)"])
        let line = try #require(await relay.line(containing: "Relay listening on port "), "relay: \(relay.text)")
        let match = try #require(line.firstMatch(of: /port (\d+) as ([0-9a-f-]+)\./), "relay: \(line)")
        return (relay, try #require(Int(match.output.1)), String(match.output.2))
    }

    @Test("Someone in the middle: the player and the host read different verification codes; a private game's password exchange fails through it, though the password is right")
    func relayInTheMiddle() async throws {
        // A public game: bob joins the relay, which passes everything along.
        let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", "alice"], environment: personEnvironment())
        defer { host.signal(SIGKILL) }
        let (relay, relayPort, relayIdentity) = try await startRelay(toPort: try await listeningPort(of: host))
        defer { relay.signal(SIGKILL) }
        let relayAddress = try await lan.address(of: 2)
        let bob = try lan.guessnum(on: 1, ["join", "--name", "bob", "\(relayAddress):\(relayPort)"], environment: personEnvironment())
        defer { bob.signal(SIGKILL) }
        let bobsCode = try #require(await bob.line(containing: "Verification code with alice: "), "bob: \(bob.text)")
        #expect(await bob.line(containing: "Welcome, bob!") != nil, "bob: \(bob.text)")
        #expect(await relay.line(containing: "Relayed HELLO from bob.") != nil)
        host.send(line: "/players")
        var row: String?
        _ = await eventually { row = host.text.split(separator: "\n").last { $0.hasPrefix("bob ") && $0.contains("connected") }.map(String.init); return row != nil }
        let hostsRow = try #require(row, "host: \(host.text)")
        let codes = (bobsCode.firstMatch(of: /\d{3} \d{3}/)?.output, hostsRow.firstMatch(of: /\d{3} \d{3}/)?.output)
        #expect(codes.0 != nil && codes.1 != nil && codes.0 != codes.1, "bob reads \(bobsCode), the host \(hostsRow)")
        bob.closeInput()
        host.send(line: "/quit")
        #expect(await host.exitStatus() == 0, "host: \(host.text)")
        relay.signal(SIGKILL)
        try await Task.sleep(for: .seconds(2))  // the goodbye takes about a second to land

        // A private game, hidden; the relay announces it under its name, with its own identity.
        let owner = personEnvironment().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 }
        let secret = try lan.guessnum(on: 0, ["host", "--password", "--secret", "42", "--name", "alice"], environment: owner)
        defer { secret.signal(SIGKILL) }
        let secretPort = try await listeningPort(of: secret)
        secret.send(line: "/visible off")
        #expect(await secret.line(containing: "The game is no longer announced") != nil, "host: \(secret.text)")
        let (middle, middlePort, middleIdentity) = try await startRelay(toPort: secretPort)
        defer { middle.signal(SIGKILL) }
        #expect(middleIdentity != relayIdentity)
        let announcement = try lan.start(on: 2, ["avahi-publish", "-s", "alice", "_guessnum._tcp", "\(middlePort)", "pv=1", "id=\(middleIdentity)", "r=1..100", "k=1"])
        defer { announcement.signal(SIGKILL) }
        let carol = try lan.guessnum(
            on: 1, ["join", "--game", "alice", "--name", "carol", "--timeout", "30"],
            environment: personEnvironment().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 })
        defer { carol.signal(SIGKILL) }
        #expect(await carol.exitStatus(within: .seconds(60)) == 3, "carol: \(carol.text)")
        #expect(carol.text.contains("alice could not prove it knows this password"), "carol: \(carol.text)")
        #expect(await middle.line(containing: "Relayed HELLO from carol.") != nil, "the exchange went through the relay: \(middle.text)")
        #expect(!carol.text.contains("Welcome, carol!") && !secret.text.contains("carol joined"))
    }

    /// Whether what `avahi-browse` resolves on host `index` satisfies `condition` within 60 s.
    func listing(on index: Int, _ condition: (String) -> Bool) async throws -> Bool {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(60) {
            let browse = try lan.start(on: index, ["avahi-browse", "-rpt", "_guessnum._tcp"], environment: personEnvironment())
            _ = await browse.exitStatus()
            if condition(browse.text) { return true }
            try await Task.sleep(for: .milliseconds(500))
        }
        return false
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
