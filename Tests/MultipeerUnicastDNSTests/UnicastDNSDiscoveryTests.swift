import EventBus
import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// Publishing and browsing games in a unicast domain against a real Knot DNS server on loopback:
/// listed, updated, withdrawn; a host that stopped refreshing goes out of sight within its TTL;
/// stale, foreign and junk records are not listed; a refused key and a dead server are sentences.
@Suite("Games in a site's DNS zone", .timeLimit(.minutes(1)))
struct UnicastDNSDiscoveryTests {
    let type = try! ServiceType("guessnum")
    let deadline: Duration = .seconds(20)

    func configuration(_ server: KnotServer, key: TSIGKey?, ttl: UInt32 = 3) -> UnicastDNSConfiguration {
        UnicastDNSConfiguration(
            domain: KnotServer.zone, server: server.endpoint, key: key, ttl: ttl, pollInterval: .milliseconds(200), timeout: .seconds(1),
            hostAddresses: { ["127.0.0.1"] })
    }

    /// Everything a browse tells, in order.
    final class Sightings: Sendable {
        let events = Watched<[DiscoveryEvent]>([])
        func record(_ event: DiscoveryEvent) { events.withLock { $0.append(event) } }
        func first(within timeout: Duration, where predicate: @escaping @Sendable (DiscoveryEvent) -> Bool) async -> DiscoveryEvent? {
            await events.wait(until: { $0.contains(where: predicate) }, before: .now + timeout).first(where: predicate)
        }
    }

    func advertisement(_ name: String, port: Int = 4242, info: DiscoveryInfo = DiscoveryInfo()) throws -> Advertisement {
        Advertisement(serviceType: type, peer: try PeerID(displayName: name), port: port, info: info)
    }

    /// A game's four records written directly, as a host of this library would (or a host
    /// killed long ago would have left them): its lease `lease`, its host name `host`.
    func writeGame(_ name: String, lease: UInt64, identity: UUID, host: String, ttl: UInt32, with client: DNSClient) async throws {
        let service = DNSName("_guessnum._tcp.games.test.")
        let instance = service.prepending(name)
        let target = KnotServer.zone.prepending(host)
        try await client.update(zone: KnotServer.zone, adding: [
            DNSRecord(name: service, ttl: ttl, data: .ptr(instance)),
            DNSRecord(name: instance, ttl: ttl, data: .srv(priority: 0, weight: 0, port: 4000, target: target)),
            DNSRecord(name: instance, ttl: ttl, data: .txt(["pv=1", "id=\(identity.uuidString.lowercased())", "lease=\(lease)"].map { Array($0.utf8) })),
            DNSRecord(name: target, ttl: ttl, data: .a("127.0.0.1")),
        ])
    }

    @Test("A published game is listed with its name as written, its address, port and facts; an update is seen; withdrawn, it goes out of sight and its records are gone")
    func publishedListedWithdrawn() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let alice = try advertisement("Alice", info: try DiscoveryInfo(["r": "1-100"]))
        let publication = try await UnicastDNSDiscovery(configuration: configuration(server, key: server.key)).publish(alice) { _ in }
        let sightings = Sightings()
        let browse = try await UnicastDNSDiscovery(configuration: configuration(server, key: nil)).browse(type) { sightings.record($0) }
        defer { Task { await browse.cancel() } }

        let found = await sightings.first(within: deadline) { if case .found = $0 { true } else { false } }
        guard case .found(let peer)? = found else { throw TestFailure("not listed: \(sightings.events.value)") }
        #expect(peer.peer == alice.peer, "the same identity")
        #expect(peer.peer.displayName == "Alice", "the name as its host wrote it, though Knot keeps the instance's in lower case")
        #expect(peer.endpoints == [try Endpoint(host: "127.0.0.1", port: 4242)])
        #expect(peer.info["r"] == "1-100")

        try await publication.update(try DiscoveryInfo(["r": "1-10"]))
        #expect(await sightings.first(within: deadline) { if case .found(let seen) = $0 { seen.info["r"] == "1-10" } else { false } } != nil, "the update is seen")

        await publication.cancel()
        #expect(await sightings.first(within: deadline) { $0 == .lost(alice.peer) } != nil, "withdrawn: \(sightings.events.value)")
        // Out of sight can come from the record's age before the withdrawal's update is applied
        // (a busy machine): wait for the update, not for a moment.
        let client = DNSClient(server: server.endpoint, key: nil)
        var pointers = try await client.records(.ptr, at: DNSName("_guessnum._tcp.games.test."))
        let giveUp = ContinuousClock.now + deadline
        while !pointers.isEmpty, ContinuousClock.now < giveUp {
            try await Task.sleep(for: .milliseconds(100))
            pointers = try await client.records(.ptr, at: DNSName("_guessnum._tcp.games.test."))
        }
        #expect(pointers.isEmpty, "no pointer left")
    }

    @Test("A host that stops refreshing (killed without withdrawing) goes out of sight within its TTL, even with its clock an hour ahead; a record whose lease lapsed long ago is never listed")
    func staleRecords() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let client = DNSClient(server: server.endpoint, key: server.key)
        let now = UInt64(Date().timeIntervalSince1970)
        func publish(_ name: String, lease: UInt64, identity: UUID) async throws {
            try await writeGame(name, lease: lease, identity: identity, host: "gn-\(name)", ttl: 3, with: client)
        }
        let (killed, ancient) = (UUID(), UUID())
        // Its lease an hour away (its clock ahead): only its standing still tells it is dead.
        try await publish("killed", lease: now + 3_600, identity: killed)
        try await publish("ancient", lease: now - 3_600, identity: ancient)
        let sightings = Sightings()
        let browse = try await UnicastDNSDiscovery(configuration: configuration(server, key: nil)).browse(type) { sightings.record($0) }
        defer { Task { await browse.cancel() } }
        let found = await sightings.first(within: deadline) { if case .found(let peer) = $0 { peer.peer.identity == killed } else { false } }
        #expect(found != nil, "listed while its lease is fresh")
        let lost = await sightings.first(within: deadline) { if case .lost(let peer) = $0 { peer.identity == killed } else { false } }
        #expect(lost != nil, "out of sight once its lease stopped moving for a TTL: \(sightings.events.value)")
        #expect(!sightings.events.value.contains { if case .found(let peer) = $0 { peer.peer.identity == ancient } else { false } }, "never listed")
    }

    @Test("Games left behind long ago are removed by the next host that publishes: their pointer, records and host name — not a host name a live game still uses, not a fresh one")
    func leftBehindPruned() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let client = DNSClient(server: server.endpoint, key: server.key)
        let service = DNSName("_guessnum._tcp.games.test.")
        let now = UInt64(Date().timeIntervalSince1970)
        func publish(_ name: String, lease: UInt64, host: String) async throws {
            try await writeGame(name, lease: lease, identity: UUID(), host: host, ttl: 60, with: client)
        }
        try await publish("gone", lease: now - 3_600, host: "gn-gone")
        try await publish("gone-too", lease: now - 3_600, host: "gn-shared")
        try await publish("alive", lease: now + 60, host: "gn-shared")
        let publication = try await UnicastDNSDiscovery(configuration: configuration(server, key: server.key)).publish(try advertisement("bob")) { _ in }
        defer { Task { await publication.cancel() } }

        let names = Watched<[String]>([])
        let watcher = Task {
            while !Task.isCancelled {
                let pointers = (try? await client.records(.ptr, at: service)) ?? []
                names.withLock { $0 = pointers.compactMap { if case .ptr(let instance) = $0.data { instance.labels.first } else { nil } }.sorted() }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { watcher.cancel() }
        let left = await names.wait(until: { $0 == ["alive", "bob"] }, before: .now + deadline)
        #expect(left == ["alive", "bob"], "the two games left behind removed")
        #expect(try await client.records(.txt, at: service.prepending("gone")).isEmpty)
        #expect(try await client.records(.srv, at: service.prepending("gone-too")).isEmpty)
        #expect(try await client.records(.a, at: KnotServer.zone.prepending("gn-gone")).isEmpty, "its host name too")
        #expect(try await client.records(.a, at: KnotServer.zone.prepending("gn-shared")).count == 1, "a host name a live game uses stays")
        #expect(try await client.records(.txt, at: service.prepending("alive")).count == 1, "a fresh game stays")
    }

    @Test("Junk in the zone — a pointer to nothing, a record of another program, huge TXT records — is not listed, and a good game beside it is")
    func junk() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let client = DNSClient(server: server.endpoint, key: server.key)
        let service = DNSName("_guessnum._tcp.games.test.")
        let huge = (0..<200).map { _ in [UInt8](repeating: UInt8(ascii: "x"), count: 255) }
        try await client.update(zone: KnotServer.zone, adding: [
            DNSRecord(name: service, ttl: 60, data: .ptr(service.prepending("nothing"))),
            DNSRecord(name: service, ttl: 60, data: .ptr(service.prepending("other"))),
            DNSRecord(name: service.prepending("other"), ttl: 60, data: .srv(priority: 0, weight: 0, port: 1, target: KnotServer.zone.prepending("ns"))),
            DNSRecord(name: service.prepending("other"), ttl: 60, data: .txt(huge)),
        ])
        let publication = try await UnicastDNSDiscovery(configuration: configuration(server, key: server.key)).publish(try advertisement("bob")) { _ in }
        defer { Task { await publication.cancel() } }
        let sightings = Sightings()
        let browse = try await UnicastDNSDiscovery(configuration: configuration(server, key: nil)).browse(type) { sightings.record($0) }
        defer { Task { await browse.cancel() } }
        let found = await sightings.first(within: deadline) { if case .found = $0 { true } else { false } }
        guard case .found(let peer)? = found else { throw TestFailure("bob not listed: \(sightings.events.value)") }
        #expect(peer.peer.displayName == "bob")
        #expect(sightings.events.value.allSatisfy { if case .found(let seen) = $0 { seen.peer.displayName == "bob" } else { true } }, "\(sightings.events.value)")
    }

    @Test("A key the server does not accept fails publication with a sentence; without a key nothing can be published; a dead server is said once while browsing")
    func refusedAndDead() async throws {
        let server = try await KnotServer()
        let wrong = try TSIGKey(name: server.key.name, secret: Data(repeating: 1, count: 32).base64EncodedString())
        let refused = await #expect(throws: MultipeerError.self) {
            _ = try await UnicastDNSDiscovery(configuration: configuration(server, key: wrong)).publish(try advertisement("eve")) { _ in }
        }
        #expect(refused?.code == .discoveryFailed && refused?.message.contains("did not accept the key guessnum-hosts.") == true, "\(String(describing: refused))")
        let keyless = await #expect(throws: MultipeerError.self) {
            _ = try await UnicastDNSDiscovery(configuration: configuration(server, key: nil)).publish(try advertisement("eve")) { _ in }
        }
        #expect(keyless?.code == .discoveryUnavailable, "\(String(describing: keyless))")

        await server.stop()
        let sightings = Sightings()
        let browse = try await UnicastDNSDiscovery(configuration: configuration(server, key: nil)).browse(type) { sightings.record($0) }
        defer { Task { await browse.cancel() } }
        let failed = await sightings.first(within: deadline) { if case .failed = $0 { true } else { false } }
        guard case .failed(let error)? = failed else { throw TestFailure("no failure told: \(sightings.events.value)") }
        #expect(error.message.contains("did not answer"), "\(error.message)")
        try await Task.sleep(for: .milliseconds(1_500))  // about seven polls: the window in which no second failure may be told
        #expect(sightings.events.value.count { if case .failed = $0 { true } else { false } } == 1, "said once, not at every poll")
    }
}
