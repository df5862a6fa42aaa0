import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// Games in a site's DNS zone between real `guessnum` processes on loopback, with a real Knot
/// DNS server: a record in a shared zone is only a hint. Each person has their own HOME.
@Suite("A site's DNS zone: records are hints", .timeLimit(.minutes(2)))
struct SiteZoneLoopbackTests {
    func guessnum(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: TrustTests.person())
    }

    @Test("A copy of a game's record under another name, pointing at another host, neither lists a second game nor leads there: the player joins the host that proves the key")
    func forgedRecord() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let keyFile = Scratch.path("site", suffix: ".key")
        try server.keyText.write(to: keyFile, atomically: true, encoding: .utf8)
        let site = ["--dns-domain", KnotConfiguration.zone, "--dns-server", "127.0.0.1:\(server.endpoint.port)"]

        let gus = try guessnum(["host", "--name", "gus"] + site + ["--dns-key", keyFile.path])
        defer { gus.signal(SIGKILL) }
        #expect(await gus.line(containing: "The game is listed as “gus”") != nil, "gus: \(gus.text)")
        let mallory = try guessnum(["host", "--name", "mallory"])
        defer { mallory.signal(SIGKILL) }
        let malloryPort = try await TrustTests().listeningPort(of: mallory)

        // Someone with the site's key copies gus's record under another name, pointing at mallory.
        let client = DNSClient(server: server.endpoint, key: try TSIGKey(parsing: server.keyText))
        let zone = DNSName(KnotConfiguration.zone)
        let service = zone.prepending("_tcp").prepending("_guessnum")
        guard case .txt(let entries)? = try await client.records(.txt, at: service.prepending("gus")).first?.data else {
            throw TestFailure("gus's TXT record is not in the zone")
        }
        let lease = "lease=\(UInt64(Date().timeIntervalSince1970) + 600)"
        let forged = entries.map { String(decoding: $0, as: UTF8.self) }.map { $0.hasPrefix("lease=") ? lease : $0 }
        let copy = service.prepending("gus-copy")
        try await client.update(zone: zone, adding: [
            DNSRecord(name: service, ttl: 60, data: .ptr(copy)),
            DNSRecord(name: copy, ttl: 60, data: .srv(priority: 0, weight: 0, port: UInt16(malloryPort), target: zone.prepending("gn-forged"))),
            DNSRecord(name: copy, ttl: 60, data: .txt(forged.map { Array($0.utf8) })),
            DNSRecord(name: zone.prepending("gn-forged"), ttl: 60, data: .a("127.0.0.1")),
        ])

        let bob = try guessnum(["join", "--game", "gus", "--name", "bob", "--timeout", "15"] + site)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined gus's game.") != nil, "bob: \(bob.text)")
        #expect(await gus.line(containing: "bob joined") != nil, "gus: \(gus.text)")
        #expect(!bob.text.contains("gus-copy"), "one game, under its first claimant's name: \(bob.text)")
        #expect(!mallory.text.contains("bob joined"), "mallory: \(mallory.text)")
    }
}
