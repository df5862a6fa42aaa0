import CAvahi
import Foundation
import Multipeer
@testable import MultipeerAvahi
import Testing

@Suite("TXT records", .timeLimit(.minutes(2)))
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

    @Test("Received entries are read as RFC 6763 says", arguments: [
        (["a=1", "b=2"], ["a": "1", "b": "2"]),
        (["flag"], ["flag": ""]),                               // a key without "=" is present, empty
        (["a="], ["a": ""]),
        (["a=x=y"], ["a": "x=y"]),                              // the first "=" ends the key
        (["a=1", "a=2"], ["a": "1"]),                           // a repeated key: the first wins
        (["Key=1", "key=2"], ["Key": "1"]),                     // keys ignore case
        (["=orphan", "", "b=2"], ["b": "2"]),                   // empty keys and empty strings are ignored
    ] as [([String], [String: String])])
    func parse(texts: [String], expected: [String: String]) {
        #expect(TXTRecord.parse(texts) == expected)
    }

    @Test("One entry the info refuses is dropped alone; the peer keeps its other facts")
    func invalidEntryDroppedAlone() throws {
        let identity = UUID()
        let entries = TXTRecord.parse([
            "pv=1", "id=\(identity.uuidString)", "r=1-100", "muchtoolongkey=x", "p=3/8",
            "v=" + String(repeating: "x", count: 300),
        ])
        let (decoded, info) = try #require(TXTRecord.peer(named: "alice", from: entries))
        #expect(decoded.identity == identity)
        #expect(info == (try DiscoveryInfo(["r": "1-100", "p": "3/8"])))
    }

    @Test("Entries are kept while the record fits; the library's own keys never reach the info")
    func infoWithinLimits() throws {
        var entries = ["ID": "x", "Pv": "9"]
        for index in 0..<4 { entries["k\(index)"] = String(repeating: "v", count: 150) }
        let info = TXTRecord.info(from: entries)
        #expect(info.entries.keys.sorted() == ["k0", "k1"], "two 150-byte entries fit in 400 bytes, three do not")
        #expect(info.encodedSize <= DiscoveryInfo.maximumRecordBytes)
    }

    @Test("A list made for publishing reads back entry for entry")
    func listRoundTrip() {
        let texts = ["pv=1", "flag", "a=x=y"]
        let list = TXTRecord.makeList(texts)
        defer { avahi_string_list_free(list) }
        #expect(TXTRecord.read(list) == ["pv": "1", "flag": "", "a": "x=y"])
    }
}
