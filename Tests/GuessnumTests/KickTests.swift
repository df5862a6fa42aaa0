import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// What a kick removes, between real `guessnum` processes on loopback: the person, not one key of
/// theirs. Each person has their own HOME, so each terminal is a new identity.
@Suite("Kicks between real processes", .timeLimit(.minutes(2)))
struct KickTests {
    func guessnum(_ arguments: [String], environment: [String: String] = TrustTests.person()) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment)
    }

    @Test("A kicked player's second identity from the same machine is refused, under their name or another; a player seated from that address stays")
    func kickHolds() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { host.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: host)
        let carol = try guessnum(["join", "--name", "carol", "127.0.0.1:\(port)"])
        defer { carol.signal(SIGKILL) }
        #expect(await host.line(containing: "carol joined") != nil, "host: \(host.text)")
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { bob.signal(SIGKILL) }
        #expect(await host.line(containing: "bob joined (2 playing)") != nil, "host: \(host.text)")

        host.send(line: "/kick bob")
        #expect(await host.line(containing: "bob (127.0.0.1, key ") != nil, "says which bob: \(host.text)")
        #expect(await bob.line(containing: "You were removed from the game by the host.") != nil, "bob: \(bob.text)")

        // A second terminal of bob's: a new identity (its own HOME), the same machine, the same name.
        let again = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { again.signal(SIGKILL) }
        #expect(await again.exitStatus() == 3, "bob again: \(again.text)")
        #expect(again.text.contains("the host removed you from this game a short while ago; you may try again in 10 minutes."), "bob again: \(again.text)")
        // Under another name, from the same address.
        let robert = try guessnum(["join", "--name", "robert", "127.0.0.1:\(port)"])
        defer { robert.signal(SIGKILL) }
        #expect(await robert.exitStatus() == 3, "robert: \(robert.text)")
        #expect(robert.text.contains("the host removed you from this game a short while ago"), "robert: \(robert.text)")

        host.send(line: "/players")
        var rows: [String] = []
        _ = await eventually { rows = host.text.split(separator: "\n").map(String.init).filter { $0.contains(" connected ") }; return !rows.isEmpty }
        #expect(rows.count == 1 && rows.first?.hasPrefix("carol ") == true, "carol, seated from that address before the kick, stays: \(host.text)")
        #expect(!host.text.contains("bob joined (2 playing)\nbob joined") && host.text.components(separatedBy: "bob joined").count == 2, "host: \(host.text)")
    }
}
