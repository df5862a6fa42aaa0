import Foundation
import MultipeerTestSupport
import Testing

/// Discovery over real mDNS: publishers and browsers in different network namespaces of the
/// test LAN, each host with its own avahi-daemon.
@Suite("Discovery over Avahi in the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.discovery), .timeLimit(.minutes(5)))
struct AvahiLANTests {
    let lan = TestLAN.discovery

    @Test("A service published on one host is found and resolved on another, and can be invited")
    func foundAndResolved() async throws {
        let browser = try lan.probe(on: 1, ["browse", "--invite", "alice"])
        defer { browser.stop() }
        let publisher = try lan.probe(on: 0, ["publish", "alice", "r=1-100", "p=0/8"])
        defer { publisher.stop() }
        let publishing = try #require(await publisher.first { $0.event == "publishing" })
        let found = try #require(await browser.first { $0.event == "found" && $0.name == "alice" }, "browser: \(browser.process.text)")
        #expect(found.id == publishing.id)
        // Seen over IPv4 and IPv6: one peer, whose addresses arrive as its sightings resolve,
        // IPv4 first.
        let both = try #require(await browser.first { $0.name == "alice" && $0.endpoints?.count == 2 }, "browser: \(browser.process.text)")
        #expect(both.endpoints?.first == "\(try await lan.address(of: 0)):\(publishing.port ?? 0)")
        #expect(both.endpoints?.last?.hasPrefix("[fe80:") == true)
        #expect(both.endpoints?.last?.hasSuffix("%lan0]:\(publishing.port ?? 0)") == true)
        #expect(found.info == ["r": "1-100", "p": "0/8"])
        #expect(await browser.first { $0.event == "connected" && $0.name == "alice" } != nil, "an invitation crosses the LAN over TCP")
        #expect(await publisher.first { $0.event == "joined" && $0.name == "probe-browser" } != nil)
        #expect(browser.events.filter { $0.event == "found" }.count == 1, "one entry per service: \(browser.process.text)")
    }

    @Test("Stopping advertising is seen as lost, starting again as found, and a TXT update in place")
    func stopStartUpdate() async throws {
        let browser = try lan.probe(on: 1, ["browse"])
        defer { browser.stop() }
        let publisher = try lan.probe(on: 0, ["publish", "bob", "r=1-100"])
        defer { publisher.stop() }
        #expect(await browser.first { $0.event == "found" && $0.name == "bob" } != nil)

        publisher.send("update r=1-50")
        // (An earlier `updated` may only add the IPv6 address; wait for the new TXT.)
        #expect(await browser.first { $0.event == "updated" && $0.name == "bob" && $0.info?["r"] == "1-50" } != nil,
                "browser: \(browser.process.text)")

        let seen = browser.events.count
        publisher.send("stop")
        let stopped = try #require(await publisher.first { $0.event == "stopped" })
        let lost = try #require(await browser.next(after: seen) { $0.event == "lost" && $0.name == "bob" })
        // The goodbye removes it at once (about a second on a quiet machine); without one, the
        // record would stay until its TTL ran out (75 minutes): the bound tells the two apart and
        // leaves a busy machine's daemons time.
        #expect(lost.t - stopped.t < 30_000, "the goodbye removes it, not the record's TTL")

        let seenAgain = browser.events.count
        publisher.send("start")
        #expect(await browser.next(after: seenAgain) { $0.event == "found" && $0.name == "bob" } != nil)
        // A peer's cache may briefly hold the old TXT; the current one must follow.
        #expect(await browser.next(after: seenAgain) { $0.name == "bob" && $0.info?["r"] == "1-50" } != nil,
                "browser: \(browser.process.text)")
    }

    @Test("Two hosts announcing one name are both visible under distinct names")
    func nameCollision() async throws {
        let browser = try lan.probe(on: 1, ["browse"])
        defer { browser.stop() }
        let first = try lan.probe(on: 0, ["publish", "carol"])
        defer { first.stop() }
        #expect(await first.first { $0.event == "established" } != nil)
        let second = try lan.probe(on: 2, ["publish", "carol"])
        defer { second.stop() }
        let renamed = await second.first { $0.event == "renamed" }
        #expect(renamed?.name == "carol #2")
        #expect(await browser.first { $0.event == "found" && $0.name == "carol #2" } != nil)
        let names = Set(browser.events.filter { $0.event == "found" }.compactMap(\.name))
        #expect(names.isSuperset(of: ["carol", "carol #2"]))
        let ids = Set(browser.events.filter { $0.event == "found" && $0.name?.hasPrefix("carol") == true }.compactMap(\.id))
        #expect(ids.count == 2)
    }

    @Test("A stopped avahi-daemon is a clear error; when it comes back, publishing resumes by itself")
    func daemonTrouble() async throws {
        try await lan.stopAvahi(on: 2)
        let publisher = try lan.probe(on: 2, ["publish", "dave"])
        defer { publisher.stop() }
        let missing = try #require(await publisher.first { $0.event == "failed" }, "publisher: \(publisher.process.text)")
        #expect(missing.code == "discoveryUnavailable")
        #expect(missing.message?.contains("avahi-daemon is not running") == true)
        #expect(missing.message?.contains("HOST:PORT") == true)

        let browser = try lan.probe(on: 1, ["browse"])
        defer { browser.stop() }
        try await lan.startAvahi(on: 2)
        #expect(await publisher.first { $0.event == "established" } != nil, "publisher: \(publisher.process.text)")
        #expect(await browser.first { $0.event == "found" && $0.name == "dave" } != nil)

        let seen = publisher.events.count
        let browserSeen = browser.events.count
        try await lan.stopAvahi(on: 2)
        let stopped = await publisher.next(after: seen) { $0.event == "failed" }
        #expect(stopped?.message?.contains("avahi-daemon stopped") == true)
        #expect(await browser.next(after: browserSeen) { $0.event == "lost" && $0.name == "dave" } != nil)
        try await lan.startAvahi(on: 2)
        #expect(await publisher.next(after: seen) { $0.event == "established" } != nil, "no restart of the program needed")
        #expect(await browser.next(after: browserSeen) { $0.event == "found" && $0.name == "dave" } != nil)
        #expect(publisher.events.filter { $0.event == "failed" }.count == 2, "one failure report per outage: \(publisher.process.text)")
    }

    @Test("A service that comes back while mDNS was dropped is seen again, with its new TXT, though the browse has been open a long time")
    func comesBackAfterLostAnnouncements() async throws {
        let publisher = try lan.probe(on: 0, ["publish", "gina", "r=1-100", "n=1"])
        defer { publisher.stop() }
        // A list that was open a while and has just ended (as when a player restarts `join`):
        // Avahi keeps its querier, backed off, for the next browse of the type to take over.
        let earlier = try lan.probe(on: 1, ["browse"])
        #expect(await earlier.first { $0.event == "found" && $0.name == "gina" } != nil, "earlier browser: \(earlier.process.text)")
        try await Task.sleep(for: .seconds(8))  // how long that list was open: the querier then waits 8 s, then 16 s
        earlier.stop()
        _ = await earlier.process.exitStatus(within: .seconds(10))

        let browser = try lan.probe(on: 1, ["browse"])
        defer { browser.stop() }
        let opened = ContinuousClock.now
        #expect(await browser.first { $0.event == "found" && $0.name == "gina" } != nil, "browser: \(browser.process.text)")

        // The host stops (its goodbye is heard), and comes back while the switch drops mDNS: its
        // announcements are lost, and only a query from the browsing side can find it.
        publisher.send("stop")
        #expect(await browser.first { $0.event == "lost" && $0.name == "gina" } != nil, "browser: \(browser.process.text)")
        try await lan.setMulticastDNS(blocked: true)
        let seen = browser.events.count
        do {
            let published = publisher.events.count
            publisher.send("update r=1-50 n=2")
            publisher.send("start")
            #expect(await publisher.next(after: published) { $0.event == "established" } != nil, "publisher: \(publisher.process.text)")
            // Avahi's querier asks 63 s after the browse began and then not before 127 s: the
            // network comes back between the two, where only asking anew finds the game.
            try await Task.sleep(until: opened + .seconds(70))
        } catch {
            try await lan.setMulticastDNS(blocked: false)
            throw error
        }
        try await lan.setMulticastDNS(blocked: false)
        let back = await browser.next(after: seen, within: .seconds(45)) { $0.event == "found" && $0.name == "gina" }
        #expect(back != nil, "not seen again within 45 s of mDNS coming back: \(browser.process.text)")
        #expect(await browser.next(after: seen, within: .seconds(10)) { $0.name == "gina" && $0.info?["r"] == "1-50" && $0.info?["n"] == "2" } != nil,
                "the new TXT: \(browser.process.text)")
    }

    @Test("Avahi's own tools agree: avahi-browse sees our TXT, and we see avahi-publish's service")
    func crossCheck() async throws {
        let publisher = try lan.probe(on: 0, ["publish", "erin", "r=1-100"])
        defer { publisher.stop() }
        let publishing = try #require(await publisher.first { $0.event == "publishing" })
        #expect(await publisher.first { $0.event == "established" } != nil)
        // Until it prints the resolved line: with -t it would also wait for every resolver,
        // IPv6 included, and for its "all for now", which a loaded machine delayed past 30 s once.
        let avahiBrowse = try lan.start(on: 1, ["avahi-browse", "-rp", "_guessnum._tcp"])
        defer { avahiBrowse.signal(SIGKILL) }
        // A whole line: the output may be read while avahi-browse is still writing it.
        let resolved = await avahiBrowse.completeLine(containing: "=;lan0;IPv4;erin;")
        let line = try #require(resolved, "avahi-browse printed: \(avahiBrowse.text)")
        let expected = "\(try await lan.address(of: 0));\(publishing.port ?? 0);"
        #expect(line.contains(expected), "expected \(expected) in: \(line)")
        #expect(line.contains("\"pv=1\""))
        #expect(line.contains("\"id=\(publishing.id ?? "?")\""))
        #expect(line.contains("\"r=1-100\""))

        let identity = UUID().uuidString.lowercased()
        let avahiPublish = try lan.start(on: 0, ["avahi-publish", "-s", "frank", "_guessnum._tcp", "7777", "pv=1", "id=\(identity)", "r=5-9"])
        defer { avahiPublish.signal(SIGKILL) }
        let browser = try lan.probe(on: 2, ["browse"])
        defer { browser.stop() }
        let ipv4 = "\(try await lan.address(of: 0)):7777"
        let found = await browser.first { $0.name == "frank" && $0.endpoints?.contains(ipv4) == true }
        #expect(found?.id == identity, "browser: \(browser.process.text)")
        #expect(found?.info == ["r": "5-9"])
    }
}
