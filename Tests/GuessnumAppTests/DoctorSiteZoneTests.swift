import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS
import Testing

/// `guessnum doctor`'s checks of a site's zone against a real Knot DNS server on loopback: the
/// server answers and lists what is published; the key is or is not accepted; a dead server.
@Suite("Doctor: a site's DNS zone", .timeLimit(.minutes(1)))
struct DoctorSiteZoneTests {
    func site(_ server: KnotServer, key: String?) throws -> UnicastDNSConfiguration {
        UnicastDNSConfiguration(
            domain: DNSName(KnotConfiguration.zone), server: server.endpoint, key: try key.map { try TSIGKey(parsing: $0) }, timeout: .seconds(1),
            hostAddresses: { ["127.0.0.1"] })
    }

    @Test("With the right key both checks pass and the published games are named; with a wrong one publishing fails with what to do; without one it is skipped")
    func keys() async throws {
        let server = try await KnotServer()
        defer { Task { await server.stop() } }
        let right = try site(server, key: server.keyText)
        let publication = try await UnicastDNSDiscovery(configuration: right).publish(
            Advertisement(serviceType: try ServiceType("guessnum"), peer: try PeerID(displayName: "gus"), port: 4000, info: DiscoveryInfo())) { _ in }
        defer { Task { await publication.cancel() } }

        let good = await SiteZoneCheck.run(right)
        #expect(good.map(\.status) == [.ok, .ok], "\(good)")
        #expect(good.first?.items == ["gus"], "\(good)")

        let wrong = await SiteZoneCheck.run(try site(server, key: "hmac-sha256:guessnum-hosts.:\(Data(repeating: 3, count: 32).base64EncodedString())"))
        #expect(wrong.map(\.status) == [.ok, .failed], "\(wrong)")
        #expect(wrong.last?.finding.contains("did not accept the key guessnum-hosts.") == true, "\(wrong)")
        #expect(wrong.last?.fix?.contains("--dns-key") == true, "\(wrong)")

        let keyless = await SiteZoneCheck.run(try site(server, key: nil))
        #expect(keyless.map(\.status) == [.ok, .skipped], "\(keyless)")
        // The zone is named as people write it: no root dot, so the summary's full stop is one.
        let zone = DNSName(KnotConfiguration.zone).labels.joined(separator: ".")
        #expect(DoctorReport(checks: keyless).summary == "No problems found. 1 check skipped: publishing in \(zone).")
        #expect(keyless.first?.title == "the site's DNS server for \(zone)")
    }

    @Test("A server that does not answer fails the first check with what to do, and skips the key's")
    func deadServer() async throws {
        let server = try await KnotServer()
        await server.stop()
        let checks = await SiteZoneCheck.run(try site(server, key: server.keyText))
        #expect(checks.map(\.status) == [.failed, .skipped], "\(checks)")
        #expect(checks.first?.finding.contains("did not answer") == true, "\(checks)")
        #expect(checks.first?.fix?.contains("--dns-server") == true, "\(checks)")
    }
}
