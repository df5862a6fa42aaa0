import Foundation
@testable import Multipeer
import Testing

@Suite("Join codes", .timeLimit(.minutes(1)))
struct JoinCodeTests {
    @Test("A code carries the host's identity, port and addresses in one lowercase token, read back the same, in any case")
    func roundTrip() throws {
        let identity = UUID()
        let code = JoinCode(identity: identity, port: 40_123, addresses: ["192.168.1.20", "fd00::1:5", "10.0.0.7"])
        #expect(code.text.hasPrefix("gn1-"))
        #expect(code.text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } && code.text == code.text.lowercased())
        #expect(code.text.count <= 90, "short enough to read out: \(code.text)")
        let parsed = try JoinCode(parsing: "  " + code.text.uppercased() + "\n")
        #expect(parsed == code)
        #expect(parsed.endpoints(near: []).map(\.description) == ["192.168.1.20:40123", "[fd00::1:5]:40123", "10.0.0.7:40123"])
    }

    @Test("Addresses a code cannot carry are left out: names, scoped link-local, beyond four")
    func onlyNumericAddresses() {
        let code = JoinCode(identity: UUID(), port: 1, addresses: ["host.local", "fe80::1%eth0", "1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5"])
        #expect(code.addresses == ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"])
    }

    @Test("An IPv6 link-local address travels without a scope and is tried on each of the player's interfaces that has one")
    func linkLocal() throws {
        let code = try JoinCode(parsing: JoinCode(identity: UUID(), port: 5000, addresses: ["fe80::1"]).text)
        #expect(code.addresses == ["fe80::1"])
        let interfaces = [
            InterfaceAddress(interface: "wlan0", address: "fe80::20", prefixLength: 64, isIPv6: true),
            InterfaceAddress(interface: "eth0", address: "fe80::30", prefixLength: 64, isIPv6: true),
            InterfaceAddress(interface: "eth0", address: "192.168.1.9", prefixLength: 24, isIPv6: false),
            InterfaceAddress(interface: "docker0", address: "fe80::40", prefixLength: 64, isIPv6: true),
        ]
        #expect(code.endpoints(near: interfaces).map(\.description) == ["[fe80::1%eth0]:5000", "[fe80::1%wlan0]:5000"])
        #expect(code.endpoints(near: []).isEmpty, "no link of its own: nowhere to try")
    }

    @Test("A mistyped, cut or foreign token is a sentence, never a wrong host", arguments: [0, 5, 20])
    func damaged(position: Int) throws {
        let text = JoinCode(identity: UUID(), port: 5000, addresses: ["192.168.1.20"]).text
        var characters = Array(text)
        let index = JoinCode.prefix.count + position
        characters[index] = characters[index] == "a" ? "b" : "a"
        let error = #expect(throws: MultipeerError.self) { try JoinCode(parsing: String(characters)) }
        #expect(error?.message.contains("damaged") == true)
        #expect(throws: MultipeerError.self) { try JoinCode(parsing: String(text.dropLast(3))) }
        let foreign = #expect(throws: MultipeerError.self) { try JoinCode(parsing: "192.168.1.20:5000") }
        #expect(foreign?.message.contains("not a join code") == true)
    }

    @Test("Base32 round-trips every length")
    func base32() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
        #expect(Base32.decode("0189") == nil, "not in the alphabet")
    }
}
