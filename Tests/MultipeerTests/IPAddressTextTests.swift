import Foundation
import Testing

@testable import Multipeer

#if canImport(Glibc)
import Glibc
#endif

/// The core reads and writes numeric addresses in Swift, without the C library: what it reads
/// and writes is what `inet_pton` and `inet_ntop` read and write.
@Suite("Addresses: numeric text as the C library reads and writes it", .timeLimit(.minutes(1)))
struct IPAddressTextTests {
    static let texts = [
        "10.0.0.5", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.", "1.2.3.4.5", ".1.2.3", "1..2.3", "1.2.3.04",
        "", "::", "::1", "1::", "1:", ":1", ":::", "fd00::1", "FD00::A", "fe80::1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::",
        "::2:3:4:5:6:7:8", "1::8", "1:0:0:2:0:0:0:3", "0:0:1:0:0:1:0:0", "12345::", "::ffff:10.0.0.5", "::10.0.0.5", "::ffff:1.2.3", "1:2:3:4:5:6:1.2.3.4",
        "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4.5", "1::2::3", "g::1", "2001:db8::", "2001:0db8:0000:0000:0000:ff00:0042:8329", "::0.0.0.1", "::ffff:0:1",
        "gamehost.local", "1.2.3.4x", "::x", "0::0", "1:2:3:4:5:6:7:8:", ":1:2:3:4:5:6:7:8",
    ]

    static func cParse(_ text: String, family: Int32) -> [UInt8]? {
        var storage = [UInt8](repeating: 0, count: 16)
        let ok = storage.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) } == 1
        return ok ? Array(storage.prefix(family == AF_INET ? 4 : 16)) : nil
    }

    static func cFormat(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 16 ? AF_INET6 : AF_INET
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("Reading: the same bytes as inet_pton, or nil where it refuses")
    func reading() {
        for text in Self.texts {
            #expect(IPAddressText.parseIPv4(Array(text.utf8)) == Self.cParse(text, family: AF_INET), "\(text)")
            #expect(IPAddressText.parseIPv6(text) == Self.cParse(text, family: AF_INET6), "\(text)")
        }
    }

    @Test("Writing: the same text as inet_ntop, for runs of zeros anywhere and IPv4 tails")
    func writing() {
        var samples: [[UInt8]] = Self.texts.compactMap { Self.cParse($0, family: AF_INET6) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // Words of 0 often, so that runs of every length and place come up.
            samples.append((0..<8).flatMap { _ -> [UInt8] in
                let word = Int.random(in: 0..<4, using: &generator) == 0 ? UInt16.random(in: 0...0xFFFF, using: &generator) : (Bool.random() ? 0 : 0xFFFF)
                return [UInt8(word >> 8), UInt8(word & 0xFF)]
            })
        }
        for bytes in samples {
            #expect(IPAddressText.formatIPv6(bytes) == Self.cFormat(bytes), "\(bytes)")
        }
        for bytes: [UInt8] in [[10, 0, 0, 5], [0, 0, 0, 0], [255, 255, 255, 255], [192, 168, 1, 20]] {
            #expect(IPAddressText.formatIPv4(bytes) == Self.cFormat(bytes))
        }
    }
}
