import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import Testing

/// Known hosts: the file, the marks in the list of games, and what joining a host with another
/// key than before does at a terminal and in a script.
@Suite("Known hosts", .timeLimit(.minutes(1)))
struct KnownHostsTests {
    func temporaryFile() -> KnownHosts {
        KnownHosts(fileURL: Scratch.path("guessnum-known").appendingPathComponent("known_hosts"))
    }

    /// A fingerprint whose identity (its first 16 bytes) is `identity`.
    static func fingerprint(of identity: UUID) -> PeerFingerprint {
        let hex = identity.uuidString.lowercased().filter { $0 != "-" }
        return PeerFingerprint(hex: hex + String(repeating: "0", count: 32))!
    }

    @Test("Hosts are remembered by name, one line each, replaced in place; lines it cannot read are kept and skipped")
    func file() throws {
        let hosts = temporaryFile()
        defer { try? FileManager.default.removeItem(at: hosts.fileURL.deletingLastPathComponent()) }
        let first = PeerKey.generate().fingerprint
        let second = PeerKey.generate().fingerprint
        #expect(hosts.status(ofHost: "alice", key: first) == .unknown)
        try hosts.remember("alice", key: first)
        try hosts.remember("bob smith", key: second)
        #expect(hosts.status(ofHost: "alice", key: first) == .known)
        #expect(hosts.status(ofHost: "alice", identity: first.identity) == .known)
        #expect(hosts.status(ofHost: "alice", key: second) == .changed)
        #expect(hosts.status(ofHost: "bob smith", key: second) == .known)
        let text = try String(contentsOf: hosts.fileURL, encoding: .utf8)
        #expect(text.contains("\(first) alice\n") && text.contains("\(second) bob smith\n"), "\(text)")

        try Data((text + "garbage line\n").utf8).write(to: hosts.fileURL)
        try hosts.remember("alice", key: second)
        let rewritten = try String(contentsOf: hosts.fileURL, encoding: .utf8)
        #expect(rewritten.contains("garbage line") && !rewritten.contains("\(first) alice"))
        #expect(hosts.status(ofHost: "alice", key: second) == .known)
    }

    @Test("The list marks a host played before, and one that now announces another key")
    func listMarks() async throws {
        let game = try await AppHarness()
        let hosts = temporaryFile()
        defer { try? FileManager.default.removeItem(at: hosts.fileURL.deletingLastPathComponent()) }
        try hosts.remember("alice", key: Self.fingerprint(of: game.room.session.localPeer.identity))
        let bob = try game.player("bob", knownHosts: hosts)
        #expect(await eventually { bob.console.lines.contains { $0.contains("alice — ") && $0.contains("played before") } }, "\(bob.console.lines)")
        _ = await bob.stop()

        try hosts.remember("alice", key: PeerKey.generate().fingerprint)
        let carol = try game.player("carol", knownHosts: hosts)
        #expect(await carol.console.line(containing: "ANOTHER KEY than when you last played") != nil, "\(carol.console.lines)")
        _ = await carol.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("--game refuses a host that now has another key, with a sentence and exit code 3")
    func scriptRefusesChangedKey() async throws {
        let game = try await AppHarness()
        let hosts = temporaryFile()
        defer { try? FileManager.default.removeItem(at: hosts.fileURL.deletingLastPathComponent()) }
        try hosts.remember("alice", key: PeerKey.generate().fingerprint)
        let bob = try game.player("bob", gameName: "alice", knownHosts: hosts)
        let failure = await bob.run.value
        #expect(failure == AppFailure("Could not join “alice”.", exitCode: 3), "\(String(describing: failure))")
        #expect(bob.console.count("now has another key than when you last played with it") == 1, "\(bob.console.lines)")
        #expect(bob.console.count("remove its line from \(hosts.fileURL.path)") == 1)
        #expect(game.room.playerCount == 0)
        #expect(await game.stopHost() == nil)
    }

    @Test("At a terminal the player is asked: no stays in the list, yes joins")
    func terminalAsks() async throws {
        let game = try await AppHarness()
        let hosts = temporaryFile()
        defer { try? FileManager.default.removeItem(at: hosts.fileURL.deletingLastPathComponent()) }
        try hosts.remember("alice", key: PeerKey.generate().fingerprint)
        let bob = try game.player("bob", knownHosts: hosts, interactive: true)
        #expect(await bob.console.line(containing: "1) alice") != nil)
        bob.type("1")
        #expect(await bob.console.line(containing: "Join anyway and remember the new key? [y/N]") != nil)
        bob.type("")
        #expect(await bob.console.line(containing: "Not joined.") != nil)
        #expect(game.room.playerCount == 0)
        bob.type("1")
        #expect(await eventually { bob.console.count("Join anyway and remember the new key?") == 2 })
        bob.type("yes")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        _ = await bob.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("Known hosts: a lookalike of a remembered name with another key is a changed key; a remembered key under a new name is known")
    func knownHostsByLookalikeAndKey() throws {
        let hosts = temporaryFile()
        defer { try? FileManager.default.removeItem(at: hosts.fileURL.deletingLastPathComponent()) }
        let real = PeerKey.generate().fingerprint
        let impostor = PeerKey.generate().fingerprint
        try hosts.remember("rt", key: real)
        for lookalike in ["Rt", "rt ", "r\u{0442}", "rt #2"] {
            #expect(hosts.status(ofHost: lookalike, key: impostor) == .changed, "\(lookalike)")
            #expect(hosts.status(ofHost: lookalike, identity: impostor.identity) == .changed, "\(lookalike)")
            #expect(hosts.status(ofHost: lookalike, key: real) == .known, "\(lookalike)")
        }
        #expect(hosts.status(ofHost: "rt's new name", key: real) == .known)
        #expect(hosts.status(ofHost: "bob", key: impostor) == .unknown)
        // One line per name (lookalikes included) and per key.
        try hosts.remember("Rt", key: impostor)
        try hosts.remember("renamed", key: impostor)
        let lines = try String(contentsOf: hosts.fileURL, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["\(impostor) renamed"])
    }
}
