import Foundation
import MultipeerTestSupport
import Synchronization
import Testing

/// A site of two subnets joined by a router that forwards unicast but not multicast, and a
/// Knot DNS server in the router for the zone `games.test.`: games published there are found,
/// joined and played across the router; mDNS alone does not see them. Each person has their
/// own HOME.
@Suite(
    "Games across subnets through a site's DNS server", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.subnetA), .testLAN(.subnetB),
    .timeLimit(.minutes(3)))
struct SubnetsLANTests {
    let a = TestLAN.subnetA
    let b = TestLAN.subnetB

    /// The router between the subnets, and a Knot server in it for `games.test.` on its
    /// address in subnet A, answering. The previous test's server, killed as that test ended,
    /// is waited for first: on a busy machine it may still hold port 53 a moment after its
    /// SIGKILL ("cannot bind address … (address already in use)").
    func siteServer() async throws -> (router: String, files: KnotConfiguration, knot: ChildProcess) {
        if let previous = Self.lastServer.withLock({ $0 }) { _ = await previous.exitStatus(within: .seconds(30)) }
        let router = try await a.route(to: b)
        let files = KnotConfiguration()
        let knot = try a.startOnRouter(["/usr/sbin/knotd", "-c", try files.write(listeningOn: "\(router)@53").path])
        Self.lastServer.withLock { $0 = knot }
        #expect(await knot.line(containing: "server started") != nil, "knotd: \(knot.text)")
        return (router, files, knot)
    }

    /// The server the latest test started (the suite runs its tests one at a time).
    private static let lastServer = Mutex<ChildProcess?>(nil)

    /// `~/.config/guessnum` of the person of `environment`, made.
    func siteFilesDirectory(of environment: [String: String]) throws -> URL {
        let directory = URL(fileURLWithPath: try #require(environment["XDG_CONFIG_HOME"])).appendingPathComponent("guessnum")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The site's key as `site-dns.key` in `directory`, readable by its owner alone.
    func writeKey(_ files: KnotConfiguration, in directory: URL) throws {
        let keyFile = directory.appendingPathComponent("site-dns.key")
        try files.keyText.write(to: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    }

    @Test("A host in subnet A is listed, joined and played from subnet B; mDNS in B does not see it; its records are gone when it quits; a wrong key is a sentence on the host, whose game stays on its LAN")
    func acrossTheRouter() async throws {
        let (router, files, knot) = try await siteServer()
        defer { knot.signal(SIGKILL) }
        let alice = personEnvironment()
        let keyFile = files.directory.appendingPathComponent("site.key")
        try files.keyText.write(to: keyFile, atomically: true, encoding: .utf8)
        let site = ["--dns-domain", KnotConfiguration.zone, "--dns-server", router]

        let host = try a.guessnum(on: 0, ["host", "--name", "gus", "--secret", "42"] + site + ["--dns-key", keyFile.path], environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting gus's game") != nil, "host: \(host.text)")

        let bob = try b.guessnum(on: 0, ["join", "--game", "gus", "--name", "bob", "--timeout", "30"] + site)
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(40)) != nil, "across the router: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "bob: \(bob.text)")

        // The control: the same subnet's mDNS alone does not see a game behind the router.
        let carol = try b.guessnum(on: 1, ["join", "--game", "gus", "--name", "carol", "--timeout", "6"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.exitStatus(within: .seconds(30)) == 3, "carol: \(carol.text)")
        #expect(carol.text.contains("No game called “gus” was found"), "carol: \(carol.text)")

        host.send(line: "/quit")
        _ = await host.exitStatus()
        let kdig = try a.startOnRouter(["/usr/bin/kdig", "@\(router)", "PTR", "_guessnum._tcp.games.test.", "+short"])
        _ = await kdig.exitStatus()
        #expect(!kdig.text.contains("gus"), "withdrawn on /quit: \(kdig.text)")

        // A wrong key: the host says so, and its game is still announced on its own LAN.
        try "hmac-sha256:guessnum-hosts.:\(Data(repeating: 9, count: 32).base64EncodedString())".write(to: keyFile, atomically: true, encoding: .utf8)
        let wrong = try a.guessnum(on: 0, ["host", "--name", "wes"] + site + ["--dns-key", keyFile.path], environment: personEnvironment())
        defer { wrong.signal(SIGKILL) }
        #expect(await wrong.line(containing: "did not accept the key guessnum-hosts.") != nil, "host: \(wrong.text)")
    }

    @Test("A file-drop receiver in subnet A, published in the site's zone with the key, is found by name and sent a file from subnet B")
    func dropAcrossTheRouter() async throws {
        let (router, files, knot) = try await siteServer()
        defer { knot.signal(SIGKILL) }
        let rita = personEnvironment()
        try writeKey(files, in: try siteFilesDirectory(of: rita))
        let site = ["--dns-domain", KnotConfiguration.zone, "--dns-server", router]
        let inbox = Scratch.path("drop-across")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let outbox = Scratch.path("drop-across-out")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        let file = outbox.appendingPathComponent("notes.txt")
        try Data("across the router\n".utf8).write(to: file)

        let receiver = try a.guessnum(on: 0, ["receive", inbox.path, "--yes", "--once", "--name", "rita"] + site, environment: rita)
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try b.guessnum(on: 0, ["send", file.path, "--to", "rita", "--name", "sam", "--timeout", "30"] + site)
        defer { sender.signal(SIGKILL) }
        #expect(await sender.exitStatus(within: .seconds(60)) == 0, "across the router: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "receiver: \(receiver.text)")
        #expect(try Data(contentsOf: inbox.appendingPathComponent("notes.txt")) == Data(contentsOf: file))
    }

    @Test("With nothing given, the network's search domain names the site's zone: a host publishes there with the key in ~/.config/guessnum/site-dns.key, a player in subnet B lists and joins it, and doctor sees it")
    func foundThroughTheSearchDomain() async throws {
        let (router, files, knot) = try await siteServer()
        defer { knot.signal(SIGKILL) }
        try await a.setResolver(search: "games.test", server: router)
        try await b.setResolver(search: "games.test", server: router)

        let alice = personEnvironment()
        let configuration = try siteFilesDirectory(of: alice)
        try writeKey(files, in: configuration)
        let host = try a.guessnum(on: 0, ["host", "--name", "gus", "--secret", "42"], environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting gus's game") != nil, "host: \(host.text)")

        let bob = try b.guessnum(on: 0, ["join", "--game", "gus", "--name", "bob", "--timeout", "30"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(40)) != nil, "through the search domain: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "bob: \(bob.text)")

        let doctor = try b.guessnum(on: 1, ["doctor"])
        defer { doctor.signal(SIGKILL) }
        _ = await doctor.exitStatus(within: .seconds(60))
        #expect(doctor.text.contains("it answers at \(router):53; published there: gus"), "doctor: \(doctor.text)")
        // No false alarm about multicast when the zone lists games, and the zone's name has no root dot.
        #expect(doctor.text.contains("✓ games on the LAN: none from other machines seen on this LAN"), "doctor: \(doctor.text)")
        #expect(doctor.text.contains("games are found through the site's zone instead (gus)"), "doctor: \(doctor.text)")
        #expect(!doctor.text.contains("test.."), "doctor: \(doctor.text)")
        #expect(!host.text.contains("DNS"), "nothing to say on the host: \(host.text)")
    }

    @Test("A host killed with SIGKILL drops out of the list in the other subnet within its TTL (4 s, from the site's file) and a poll, though its records are still in the zone")
    func killedHostDropsOut() async throws {
        let (router, files, knot) = try await siteServer()
        defer { knot.signal(SIGKILL) }
        let alice = personEnvironment()
        let configuration = try siteFilesDirectory(of: alice)
        try "domain games.test\nserver \(router)\nttl 4\n".write(to: configuration.appendingPathComponent("site-dns.conf"), atomically: true, encoding: .utf8)
        try writeKey(files, in: configuration)
        let host = try a.guessnum(on: 0, ["host", "--name", "gus"], environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting gus's game") != nil, "host: \(host.text)")

        let bob = try b.guessnum(on: 0, ["join", "--name", "bob", "--dns-domain", "games.test", "--dns-server", router])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "1) gus — ") != nil, "listed: \(bob.text)")
        host.signal(SIGKILL)
        // Its TTL (4 s) after the lease last moved, and a poll (5 s): the bound is the property.
        #expect(await bob.line(containing: "1) gus's game is no longer listed", within: .seconds(4 + 5 + 4)) != nil, "gone within its TTL and a poll: \(bob.text)")
        let kdig = try a.startOnRouter(["/usr/bin/kdig", "@\(router)", "PTR", "_guessnum._tcp.games.test.", "+short"])
        _ = await kdig.exitStatus()
        #expect(kdig.text.contains("gus"), "left in the zone by a killed host: \(kdig.text)")
    }
}
