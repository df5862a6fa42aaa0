import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// The DNS client against a real Knot DNS server on loopback: signed updates publish and remove
/// DNS-SD's records, and every refusal is a sentence.
@Suite("A site's DNS server, asked and updated", .timeLimit(.minutes(1)))
struct DNSClientTests {
    let zone = KnotServer.zone
    var service: DNSName { zone.prepending("_tcp").prepending("_guessnum") }

    func records(for instance: String, port: UInt16 = 4242) -> [DNSRecord] {
        let name = service.prepending(instance)
        let host = zone.prepending("gn-host-1")
        return [
            DNSRecord(name: service, ttl: 60, data: .ptr(name)),
            DNSRecord(name: name, ttl: 60, data: .srv(priority: 0, weight: 0, port: port, target: host)),
            DNSRecord(name: name, ttl: 60, data: .txt([Array("pv=1".utf8), Array("n=\"quoted\" \\ and ü".utf8), []])),
            DNSRecord(name: host, ttl: 60, data: .a("10.77.1.10")),
            DNSRecord(name: host, ttl: 60, data: .aaaa("fd00::10")),
        ]
    }

    @Test("A signed update publishes a game's records, any instance name, and they read back as written; a second replaces them; a deletion removes them")
    func publishReplaceRemove() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let client = DNSClient(server: server.endpoint, key: server.key)
        let instance = "Zoë's game. (2)"
        let added = records(for: instance)
        try await client.update(zone: zone, adding: added)
        for record in added {
            #expect(try await client.records(record.data.type, at: record.name) == [record], "\(record.data.type) reads back")
        }
        // A real tool sees the same pointer, the name escaped as zone files write it.
        let kdig = try ChildProcess(URL(fileURLWithPath: "/usr/bin/kdig"), ["@127.0.0.1", "-p", "\(server.endpoint.port)", "PTR", service.presentation, "+short"])
        _ = await kdig.exitStatus()
        // (Knot keeps names' ASCII letters in lower case; names compare without regard to it.)
        #expect(kdig.text.lowercased().contains(#"zo\195\171\'s\032game\.\032\(2\)._guessnum._tcp.games.test."#), "kdig: \(kdig.text)")

        let name = service.prepending(instance)
        try await client.update(zone: zone, deleting: [(name, .srv)], adding: [DNSRecord(name: name, ttl: 60, data: .srv(priority: 0, weight: 0, port: 5000, target: zone.prepending("gn-host-2")))])
        let replaced = try await client.records(.srv, at: name)
        #expect(replaced.count == 1 && replaced.first?.data == .srv(priority: 0, weight: 0, port: 5000, target: zone.prepending("gn-host-2")))

        try await client.update(zone: zone, deleting: [(name, nil), (zone.prepending("gn-host-1"), nil), (service, .ptr)])
        #expect(try await client.records(.ptr, at: service).isEmpty)
        #expect(try await client.records(.txt, at: name).isEmpty)
        #expect(try await client.records(.a, at: zone.prepending("gn-host-1")).isEmpty)
    }

    @Test("An update that requires records as they were does nothing when they changed, with a sentence; as they are, it goes through")
    func requiredRecords() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let client = DNSClient(server: server.endpoint, key: server.key)
        let name = DNSName("gus._guessnum._tcp.games.test.")
        let before = DNSRecord(name: name, ttl: 60, data: .txt([Array("lease=1".utf8)]))
        try await client.update(zone: KnotServer.zone, adding: [before])
        let other = DNSRecord(name: name, ttl: 60, data: .txt([Array("lease=2".utf8)]))
        do {
            try await client.update(zone: KnotServer.zone, requiring: [other], deleting: [(name, nil)])
            Issue.record("an update whose prerequisite failed went through")
        } catch {
            #expect(error.code == .changed, "\(error.message)")
            #expect(error.message.contains("changed on the DNS server"), "\(error.message)")
        }
        #expect(try await client.records(.txt, at: name) == [before], "nothing deleted")
        try await client.update(zone: KnotServer.zone, requiring: [before], deleting: [(name, nil)])
        #expect(try await client.records(.txt, at: name).isEmpty)
    }

    @Test("A wrong secret, an unknown key and no key are refused with a sentence, and change nothing")
    func refusedKeys() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let wrongSecret = try TSIGKey(name: server.key.name, secret: Data(repeating: 7, count: 32).base64EncodedString())
        let unknown = try TSIGKey(name: DNSName("someone-else."), secret: server.key.secret)
        for key in [wrongSecret, unknown] {
            let error = await #expect(throws: DNSError.self) { try await DNSClient(server: server.endpoint, key: key).update(zone: zone, adding: records(for: "eve")) }
            #expect(error?.code == .notAuthorized, "\(String(describing: error))")
            #expect(error?.message.contains("did not accept the key \(key.name)") == true, "\(String(describing: error))")
        }
        let unsigned = await #expect(throws: DNSError.self) { try await DNSClient(server: server.endpoint, key: nil).update(zone: zone, adding: records(for: "eve")) }
        #expect(unsigned?.code == .refused || unsigned?.code == .notAuthorized, "\(String(describing: unsigned))")
        #expect(try await DNSClient(server: server.endpoint, key: nil).records(.ptr, at: service).isEmpty, "nothing was published")
    }

    @Test("A name outside the zone is refused as not in it; a server that is not there is a sentence, not a hang")
    func outsideAndAbsent() async throws {
        let server = try await KnotServer()
        let client = DNSClient(server: server.endpoint, key: server.key, timeout: .seconds(1))
        let outside = DNSRecord(name: DNSName("elsewhere.test."), ttl: 60, data: .a("10.0.0.1"))
        let error = await #expect(throws: DNSError.self) { try await client.update(zone: zone, adding: [outside]) }
        #expect(error?.code == .notInZone, "\(String(describing: error))")

        await server.stop()
        let absent = await #expect(throws: DNSError.self) { try await client.records(.ptr, at: service) }
        #expect(absent?.code == .unreachable, "\(String(describing: absent))")
        #expect(absent?.message.contains("did not answer") == true, "\(String(describing: absent))")
    }
}
