import EventBus
import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// Publishing and browsing in zones found when they start, against a real Knot DNS server on
/// loopback, with the look-up held back by the test: facts changed meanwhile are the ones
/// published; cancelled before the zone is found, nothing is; a failed look-up is told only
/// when the zone was asked for.
@Suite("Games in a site's zone found later", .timeLimit(.minutes(1)))
struct SiteZoneDiscoveryTests {
    let type = try! ServiceType("guessnum")
    let service = DNSName("_guessnum._tcp.games.test.")

    func configuration(_ server: KnotServer) -> UnicastDNSConfiguration {
        UnicastDNSConfiguration(
            domain: KnotServer.zone, server: server.endpoint, key: server.key, ttl: 3, pollInterval: .milliseconds(200), timeout: .seconds(1),
            hostAddresses: { ["127.0.0.1"] })
    }

    /// A look-up that answers `configuration` once the test lets it, noting in `found` that it did.
    func heldLookup(_ configuration: UnicastDNSConfiguration, until released: Watched<Bool>, found: Watched<Bool>) -> SiteZoneDiscovery.Finding {
        { _ in
            _ = await released.wait(until: { $0 }, before: .now + .seconds(30))
            found.withLock { $0 = true }
            return [configuration]
        }
    }

    /// The TXT strings of `name`'s game in the zone, once there (nil when not within 10 s).
    func texts(of name: String, _ client: DNSClient) async throws -> [String]? {
        let end = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < end {
            if case .txt(let strings)? = try await client.records(.txt, at: service.prepending(name)).first?.data {
                return strings.map { String(decoding: $0, as: UTF8.self) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test("Facts changed while the zone was looked up are the ones published; publishing returns before the look-up ends")
    func factsChangedMeanwhile() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let released = Watched(false)
        let found = Watched(false)
        let discovery = SiteZoneDiscovery(finding: heldLookup(configuration(server), until: released, found: found), tellsFailures: true)
        let peer = try PeerID(displayName: "gus")
        let publication = try await discovery.publish(
            Advertisement(serviceType: type, peer: peer, port: 4000, info: try DiscoveryInfo(["r": "1-100"]))) { _ in }
        defer { Task { await publication.cancel() } }
        #expect(!found.value, "publish returned while the look-up was held")
        try await publication.update(try DiscoveryInfo(["r": "1-10"]))
        released.withLock { $0 = true }
        let client = DNSClient(server: server.endpoint, key: nil)
        let end = ContinuousClock.now + .seconds(10)
        var strings = try await texts(of: "gus", client) ?? []
        while !strings.contains("r=1-10"), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(50))
            strings = try await texts(of: "gus", client) ?? []
        }
        #expect(strings.contains("r=1-10"), "the facts as they are now: \(strings)")
    }

    @Test("Cancelled before its zone is found, a publication never reaches the zone")
    func cancelledBeforeFound() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let released = Watched(false)
        let found = Watched(false)
        let discovery = SiteZoneDiscovery(finding: heldLookup(configuration(server), until: released, found: found), tellsFailures: true)
        let publication = try await discovery.publish(
            Advertisement(serviceType: type, peer: try PeerID(displayName: "wes"), port: 4000, info: DiscoveryInfo())) { _ in }
        await publication.cancel()
        released.withLock { $0 = true }
        #expect(await found.wait(until: { $0 }, before: .now + .seconds(10)), "the look-up ended")
        // A publication begun in spite of the cancellation would write within its first update.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await DNSClient(server: server.endpoint, key: nil).records(.ptr, at: service).isEmpty)
        #expect(!server.log.contains("DDNS"), "nothing was written to the zone, not even to be withdrawn: \(server.log)")
    }

    @Test("A failed look-up of a zone asked for is told to the browser as the resolver's sentence")
    func failedLookupTold() async throws {
        let dead = try Endpoint(host: "127.0.0.1", port: 9)
        let discovery = SiteZoneDiscovery(finding: { _ throws(DNSError) in
            _ = try await DNSClient(server: dead, key: nil, timeout: .milliseconds(200)).records(.ptr, at: DNSName("b._dns-sd._udp.games.test."))
            return []
        }, tellsFailures: true)
        let events = Watched<[DiscoveryEvent]>([])
        let browse = try await discovery.browse(type) { event in events.withLock { $0.append(event) } }
        defer { Task { await browse.cancel() } }
        let told = await events.wait(until: { !$0.isEmpty }, before: .now + .seconds(10))
        guard case .failed(let error)? = told.first else { throw TestFailure("not told: \(told)") }
        #expect(error.message.contains("did not answer"), "\(error.message)")
    }
}
