import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// Games in a site's DNS zone between real `guessnum` processes on loopback, with a real Knot
/// DNS server: a record in a shared zone is only a hint. Each person has their own HOME.
@Suite("A site's DNS zone: records are hints", .timeLimit(.minutes(2)))
struct SiteZoneLoopbackTests {
    func guessnum(_ arguments: [String], environment: [String: String] = TrustTests.person()) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment)
    }

    /// Gus hosting a game listed in `server`'s zone, and the options that name the zone.
    func gusHosting(in server: KnotServer) async throws -> (ChildProcess, [String]) {
        let keyFile = Scratch.path("site", suffix: ".key")
        try server.keyText.write(to: keyFile, atomically: true, encoding: .utf8)
        let site = ["--dns-domain", KnotConfiguration.zone, "--dns-server", "127.0.0.1:\(server.endpoint.port)"]
        let gus = try guessnum(["host", "--name", "gus"] + site + ["--dns-key", keyFile.path])
        #expect(await gus.line(containing: "The game is listed as “gus”") != nil, "gus: \(gus.text)")
        return (gus, site)
    }

    /// `host`'s game's records copied under `name`, with `target` and `port` in its SRV record.
    func copyRecord(of host: String, as name: String, port: Int, target: String, server: KnotServer) async throws {
        let client = DNSClient(server: server.endpoint, key: try TSIGKey(parsing: server.keyText))
        let zone = DNSName(KnotConfiguration.zone)
        let service = zone.prepending("_tcp").prepending("_guessnum")
        guard case .txt(let entries)? = try await client.records(.txt, at: service.prepending(host)).first?.data else {
            throw TestFailure("\(host)'s TXT record is not in the zone")
        }
        let lease = "lease=\(UInt64(Date().timeIntervalSince1970) + 600)"
        let forged = entries.map { String(decoding: $0, as: UTF8.self) }.map { $0.hasPrefix("lease=") ? lease : $0 }
        let copy = service.prepending(name)
        try await client.update(zone: zone, adding: [
            DNSRecord(name: service, ttl: 60, data: .ptr(copy)),
            DNSRecord(name: copy, ttl: 60, data: .srv(priority: 0, weight: 0, port: UInt16(port), target: zone.prepending(target))),
            DNSRecord(name: copy, ttl: 60, data: .txt(forged.map { Array($0.utf8) })),
            DNSRecord(name: zone.prepending(target), ttl: 60, data: .a("127.0.0.1")),
        ])
    }

    @Test("A copy of a game's record under another name, pointing at another host, neither lists a second game nor leads there: the player joins the host that proves the key")
    func forgedRecord() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let (gus, site) = try await gusHosting(in: server)
        defer { gus.signal(SIGKILL) }
        let mallory = try guessnum(["host", "--name", "mallory"])
        defer { mallory.signal(SIGKILL) }
        let malloryPort = try await TrustTests().listeningPort(of: mallory)

        // Someone with the site's key copies gus's record under another name, pointing at mallory.
        try await copyRecord(of: "gus", as: "gus-copy", port: malloryPort, target: "gn-forged", server: server)

        let bob = try guessnum(["join", "--game", "gus", "--name", "bob", "--timeout", "15"] + site)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined gus's game of guess-the-number.") != nil, "bob: \(bob.text)")
        #expect(await gus.line(containing: "bob joined") != nil, "gus: \(gus.text)")
        #expect(bob.text.contains("1) gus or gus-copy — ") && !bob.text.contains("2) "), "one game, its names shown as suspicious: \(bob.text)")
        #expect(bob.text.contains("SEVERAL NAMES claim this host"), "bob: \(bob.text)")
        #expect(!mallory.text.contains("bob joined"), "mallory: \(mallory.text)")
    }

    @Test("A copy of a game's record under a name that sorts first, pointing at the real host, never names it: the list shows both names as suspicious, joining says the host's own name, and its key is remembered under it")
    func forgedName() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let (gus, site) = try await gusHosting(in: server)
        defer { gus.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: gus)
        try await copyRecord(of: "gus", as: "aaa-evil", port: port, target: "gn-real", server: server)

        let carol = try guessnum(["join", "--name", "carol"] + site)
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "aaa-evil or gus — ") != nil, "carol: \(carol.text)")
        #expect(await carol.line(containing: "SEVERAL NAMES claim this host") != nil, "carol: \(carol.text)")

        let bobsHome = TrustTests.person()
        let bob = try guessnum(["join", "--game", "aaa-evil", "--name", "bob", "--timeout", "15"] + site, environment: bobsHome)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined gus's game of guess-the-number.") != nil, "bob: \(bob.text)")
        #expect(!bob.text.contains("Joined aaa-evil"), "bob: \(bob.text)")
        let knownHosts = URL(fileURLWithPath: try #require(bobsHome["XDG_DATA_HOME"])).appendingPathComponent("guessnum/known_hosts")
        #expect(await eventually { ((try? String(contentsOf: knownHosts, encoding: .utf8)) ?? "").contains(" gus\n") })
        let remembered = (try? String(contentsOf: knownHosts, encoding: .utf8)) ?? ""
        #expect(!remembered.contains("aaa-evil"), "the real key under the forger's name: \(remembered)")
    }
}
