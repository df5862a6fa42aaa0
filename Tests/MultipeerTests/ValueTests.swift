import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Peer IDs, service types, discovery info, endpoints", .timeLimit(.minutes(1)))
struct ValueTests {
    @Test("Display names of 1 to 63 UTF-8 bytes without control, invisible or formatting characters are valid", arguments: [
        ("a", true), (String(repeating: "x", count: 63), true), (String(repeating: "x", count: 64), false),
        ("", false), ("Zoë", true), (String(repeating: "é", count: 31), true), (String(repeating: "é", count: 32), false),
        ("tab\there", false), ("new\nline", false), ("🎲 dice", true), ("\u{202E}gnp.exe", false), ("\u{2066}x", false),
        ("👨‍👩‍👧 family", true), ("❤️ fan", true), ("al\u{200B}ice", false), ("\u{2060}bob", false), ("bob\u{00A0}", false),
        ("soft\u{00AD}hyphen", false), ("\u{3164}", false), ("a\u{FEFF}b", false), ("x\u{200D}y", false), ("wide\u{3000}space", false),
    ])
    func displayNames(name: String, valid: Bool) {
        #expect(((try? PeerID(displayName: name)) != nil) == valid)
    }

    @Test("A name with an invisible or formatting character is refused with a sentence that names it")
    func invisibleCharacterSentence() {
        #expect(throws: MultipeerError.self) { try PeerID(displayName: "alice\u{200B}") }
        do {
            _ = try PeerID(displayName: "alice\u{200B}")
        } catch {
            #expect(error.code == .invalidDisplayName)
            #expect(error.message.contains("contains an invisible or formatting character (U+200B)"), "\(error.message)")
        }
    }

    @Test("Peers are equal by identity, never by name")
    func identity() throws {
        let id = UUID()
        let bob = try PeerID(displayName: "bob", identity: id)
        #expect(bob == (try PeerID(displayName: "robert", identity: id)))
        #expect(bob != (try PeerID(displayName: "bob")))
        #expect(Set([bob, try bob.renamed(to: "bobby")]).count == 1)
    }

    @Test("A peer ID survives JSON, and an invalid one is refused on decoding")
    func codable() throws {
        let bob = try PeerID(displayName: "bob")
        let decoded = try JSONDecoder().decode(PeerID.self, from: JSONEncoder().encode(bob))
        #expect(decoded == bob && decoded.displayName == "bob")
        let bad = Data(#"{"identity":"\#(UUID().uuidString)","displayName":""}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PeerID.self, from: bad) }
    }

    @Test("Errors carry a code and a sentence a person can act on")
    func errorSentences() throws {
        let error = try #require(throws: MultipeerError.self) { try PeerID(displayName: "") }
        #expect(error.code == .invalidDisplayName)
        #expect(error.message.hasSuffix("."))
        #expect(error.description == error.message)
        #expect(error.message.contains("1 to 63 bytes"))
    }

    @Test("Service types follow the DNS-SD rules", arguments: [
        ("guessnum", true), ("a", true), ("abcdefghijklmno", true), ("abcdefghijklmnop", false),
        ("", false), ("123", false), ("a1-b2", true), ("-ab", false), ("ab-", false), ("a--b", false),
        ("Guess", false), ("a_b", false), ("a.b", false),
    ])
    func serviceTypes(name: String, valid: Bool) throws {
        #expect(((try? ServiceType(name)) != nil) == valid)
        if valid { #expect(try ServiceType(name).dnsSDType == "_\(name)._tcp") }
    }

    @Test("Discovery info keeps entries within 255 bytes and the record within 400")
    func discoveryInfo() throws {
        #expect(throws: MultipeerError.self) { try DiscoveryInfo(["k": String(repeating: "v", count: 254)]) }
        #expect((try? DiscoveryInfo(["k": String(repeating: "v", count: 253)])) != nil)
        let twoBig = ["a": String(repeating: "v", count: 200), "b": String(repeating: "v", count: 200)]
        #expect(throws: MultipeerError.self) { try DiscoveryInfo(twoBig) }
        #expect(throws: MultipeerError.self) { try DiscoveryInfo(["": "x"]) }
        #expect(throws: MultipeerError.self) { try DiscoveryInfo(["a=b": "x"]) }
        #expect(throws: MultipeerError.self) { try DiscoveryInfo(["Key": "1", "key": "2"]) }
        let info = try DiscoveryInfo(["range": "1-100", "players": "3"])
        #expect(info.encodedSize == (1 + 11) + (1 + 9))
        #expect(try info.setting("players", to: "4")["players"] == "4")
        #expect(try info.setting("players", to: nil)["players"] == nil)
    }

    @Test("Endpoints parse HOST:PORT, IPv4 and bracketed IPv6", arguments: [
        ("127.0.0.1:7777", "127.0.0.1", 7777), ("[::1]:80", "::1", 80), ("game.local:1", "game.local", 1),
        ("[fe80::1%wlan0]:7777", "fe80::1%wlan0", 7777), ("alice-laptop:9", "alice-laptop", 9), ("1e100.net:443", "1e100.net", 443),
    ])
    func endpoints(text: String, host: String, port: Int) throws {
        let endpoint = try Endpoint(parsing: text)
        #expect(endpoint.host == host && endpoint.port == port)
        #expect(endpoint.description == text)
    }

    @Test("Malformed endpoints are refused with the expected form, and so are addresses no machine can have", arguments: [
        "", "host", ":80", "host:", "host:0", "host:65536", "host:x", "::1:80", "[::1]80", "a b:1",
        "999.1.1.1:1", "1.2.3:80", "1.2.3.4.5:80", "[host]:80", "[1.2.3.4]:80", "ho/st:80",
    ])
    func badEndpoints(text: String) {
        #expect(throws: MultipeerError.self) { try Endpoint(parsing: text) }
    }
}
