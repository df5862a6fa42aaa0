import Foundation
import Multipeer
@testable import MultipeerAvahi
import Testing

@Suite("Merging sightings into peers", .timeLimit(.minutes(1)))
struct SightingMergeTests {
    static let identity = UUID()
    static let alice = try! PeerID(displayName: "alice", identity: identity)

    /// A resolution of `name`'s service at `address`, carrying `txt` (alice's by default).
    static func seen(
        _ address: String, port: Int = 7777, ipv6: Bool = false, sequence: UInt64, txt: [String: String]? = nil
    ) -> AvahiSighting.Resolution {
        AvahiSighting.Resolution(
            address: address, port: port,
            txt: txt ?? ["pv": "1", "id": identity.uuidString.lowercased(), "r": "1-100"],
            isIPv6: ipv6, sequence: sequence)
    }

    static func peer(_ endpoints: [String], info: [String: String] = ["r": "1-100"], peer: PeerID = alice, otherNames: [String] = []) -> DiscoveryEvent {
        .found(DiscoveredPeer(peer: peer, endpoints: endpoints.map { try! Endpoint(parsing: $0) }, info: try! DiscoveryInfo(info), otherNames: otherNames))
    }

    @Test("Each step's sightings give the expected events", arguments: [
        ("one IPv4 sighting: found",
         [[seen("10.0.0.2", sequence: 1)]],
         [[peer(["10.0.0.2:7777"])]]),
        ("the same again: nothing new",
         [[seen("10.0.0.2", sequence: 1)], [seen("10.0.0.2", sequence: 2)]],
         [[peer(["10.0.0.2:7777"])], []]),
        ("IPv4 before IPv6, whatever came first; a repeated address once",
         [[seen("fe80::1%eth0", ipv6: true, sequence: 1), seen("10.0.0.2", sequence: 2), seen("10.0.0.2", sequence: 3)]],
         [[peer(["10.0.0.2:7777", "[fe80::1%eth0]:7777"])]]),
        ("a second interface adds its address: an update",
         [[seen("10.0.0.2", sequence: 1)], [seen("10.0.0.2", sequence: 1), seen("192.168.1.2", sequence: 2)]],
         [[peer(["10.0.0.2:7777"])], [peer(["10.0.0.2:7777", "192.168.1.2:7777"])]]),
        ("the latest TXT record wins",
         [[seen("10.0.0.2", sequence: 1), seen("192.168.1.2", sequence: 2, txt: ["pv": "1", "id": identity.uuidString, "r": "1-50"])]],
         [[peer(["10.0.0.2:7777", "192.168.1.2:7777"], info: ["r": "1-50"])]]),
        ("the last sighting gone: lost",
         [[seen("10.0.0.2", sequence: 1)], []],
         [[peer(["10.0.0.2:7777"])], [.lost(alice)]]),
        ("nothing reported, nothing lost",
         [[]],
         [[]]),
        ("a record of another version is not a peer, and loses the one that was",
         [[seen("10.0.0.2", sequence: 1)], [seen("10.0.0.2", sequence: 2, txt: ["pv": "2", "id": identity.uuidString])]],
         [[peer(["10.0.0.2:7777"])], [.lost(alice)]]),
        ("another identity under the same name: the old peer lost, the new found",
         [[seen("10.0.0.2", sequence: 1)], [seen("10.0.0.2", sequence: 2, txt: ["pv": "1", "id": "00000000-0000-0000-0000-000000000001"])]],
         [[peer(["10.0.0.2:7777"])],
          [.lost(alice), peer(["10.0.0.2:7777"], info: [:], peer: try! PeerID(displayName: "alice", identity: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!))]]),
    ] as [(String, [[AvahiSighting.Resolution]], [[DiscoveryEvent]])])
    func steps(_ what: String, steps: [[AvahiSighting.Resolution]], expected: [[DiscoveryEvent]]) {
        var merge = SightingMerge()
        let events = steps.map { merge.merge("alice", $0) }
        #expect(events == expected, "\(what)")
    }

    @Test("A second service claiming alice's identity adds its addresses and its name after hers and never replaces her listing; it going away leaves her")
    func forgedIdentity() {
        var merge = SightingMerge()
        let forged: [String: String] = ["pv": "1", "id": Self.identity.uuidString, "r": "1-5"]
        #expect(merge.merge("alice", [Self.seen("10.0.0.2", sequence: 1)]) == [Self.peer(["10.0.0.2:7777"])])
        #expect(merge.merge("mallory", [Self.seen("10.0.0.66", sequence: 2, txt: forged)]) == [Self.peer(["10.0.0.2:7777", "10.0.0.66:7777"], otherNames: ["mallory"])])
        #expect(merge.merge("mallory", []) == [Self.peer(["10.0.0.2:7777"])])
        // The forger first: the real service's addresses are still listed, and stay when it goes.
        var early = SightingMerge()
        let mallory = try! PeerID(displayName: "mallory", identity: Self.identity)
        #expect(early.merge("mallory", [Self.seen("10.0.0.66", sequence: 1, txt: forged)]) == [Self.peer(["10.0.0.66:7777"], info: ["r": "1-5"], peer: mallory)])
        #expect(early.merge("alice", [Self.seen("10.0.0.2", sequence: 2)])
            == [Self.peer(["10.0.0.66:7777", "10.0.0.2:7777"], info: ["r": "1-5"], peer: mallory, otherNames: ["alice"])])
        #expect(early.merge("mallory", []) == [Self.peer(["10.0.0.2:7777"])])
        #expect(early.merge("alice", []) == [.lost(Self.alice)])
    }

    @Test("Names are merged apart, and removing all loses every reported peer once")
    func removeAll() throws {
        var merge = SightingMerge()
        let bob = UUID()
        _ = merge.merge("alice", [Self.seen("10.0.0.2", sequence: 1)])
        _ = merge.merge("bob", [Self.seen("10.0.0.3", sequence: 2, txt: ["pv": "1", "id": bob.uuidString])])
        #expect(merge.reported.count == 2)
        let lost = merge.removeAll()
        #expect(Set(lost) == [.lost(Self.alice), .lost(try PeerID(displayName: "bob", identity: bob))])
        #expect(merge.reported.isEmpty)
        #expect(merge.removeAll().isEmpty)
    }
}
