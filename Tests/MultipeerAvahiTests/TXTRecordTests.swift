import CAvahi
import Foundation
import Multipeer
@testable import MultipeerAvahi
import Testing

@Suite("TXT records")
struct TXTRecordTests {
    let peer = try! PeerID(displayName: "alice")

    @Test("A record carries the protocol version, the identity and the info, and reads back")
    func roundTrip() throws {
        let info = try DiscoveryInfo(["r": "1-100", "p": "3/8", "n": "4"])
        let entries = try TXTRecord.entries(for: peer, info: info)
        #expect(entries.prefix(2) == ["pv=1", "id=\(peer.identity.uuidString.lowercased())"])
        let list = TXTRecord.makeList(entries)
        defer { avahi_string_list_free(list) }
        let read = TXTRecord.read(list)
        let (decoded, decodedInfo) = try #require(TXTRecord.peer(named: "alice", from: read))
        #expect(decoded == peer && decoded.displayName == "alice")
        #expect(decodedInfo == info)
    }

    @Test("The game's facts fit in 200 bytes with the library's own entries")
    func size() throws {
        let info = try DiscoveryInfo(["r": "-1000000-1000000", "p": "9999/10000", "n": "123456"])
        let bytes = try TXTRecord.entries(for: peer, info: info).reduce(0) { $0 + 1 + $1.utf8.count }
        #expect(bytes <= 200)
    }

    @Test("Reserved keys are refused with a sentence")
    func reserved() throws {
        for key in ["id", "pv", "ID"] {
            #expect(throws: MultipeerError.self) { try TXTRecord.entries(for: peer, info: DiscoveryInfo([key: "x"])) }
        }
    }

    @Test("Records without an identity or of another version are not peers", arguments: [
        ["pv": "1"], ["id": UUID().uuidString], ["pv": "2", "id": UUID().uuidString], ["pv": "1", "id": "nonsense"],
    ])
    func foreign(entries: [String: String]) {
        #expect(TXTRecord.peer(named: "x", from: entries) == nil)
    }
}
