import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

@Suite("The resolver's configuration, as DNS-SD reads it", .timeLimit(.minutes(1)))
struct ResolverSettingsTests {
    func settings(_ text: String) throws -> ResolverSettings {
        let file = Scratch.path("resolv", suffix: ".conf")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try ResolverSettings(readingFile: file.path)
    }

    @Test("Name servers and search domains are read in order; `domain` stands in when there is no `search`; comments and options are skipped")
    func reads() throws {
        let both = try settings("# from DHCP\nnameserver 10.0.0.53\nnameserver fd00::53\noptions edns0\nsearch site.example games.site.example\n")
        #expect(both.nameservers == [try Endpoint(host: "10.0.0.53", port: 53), try Endpoint(host: "fd00::53", port: 53)])
        #expect(both.searchDomains == [DNSName("site.example."), DNSName("games.site.example.")])
        #expect(try settings("nameserver 10.0.0.53\ndomain office.example\n").searchDomains == [DNSName("office.example.")])
        #expect(try settings("nameserver 10.0.0.53\n").searchDomains.isEmpty, "no search domain: nothing to look under")
    }

    @Test("A file that is not there is a sentence")
    func missing() {
        #expect(throws: DNSError.self) { try ResolverSettings(readingFile: "/nonexistent/resolv.conf") }
    }
}
