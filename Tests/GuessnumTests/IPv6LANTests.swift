import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// A LAN segment with nothing but IPv6 link-local addresses (no IPv4, no router): discovery,
/// a whole game and a join code all have to carry the interface scope (`fe80::…%lan0`).
@Suite("An IPv6-only LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.ipv6Only), .timeLimit(.minutes(3)))
struct IPv6LANTests {
    let lan = TestLAN.ipv6Only

    @Test("Link-local only: a game is found and played, and the host's join code and direct address work too")
    func wholeGame() async throws {
        let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", "six"])
        defer { host.signal(SIGKILL) }
        let codeLine = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
        let hostAddress = try await lan.address(of: 0)  // fe80::…%lan0
        #expect(host.text.contains("join [\(hostAddress)]:"), "the direct address is the link-local one with its scope: \(host.text)")

        let bob = try lan.guessnum(on: 1, ["join", "--game", "six", "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        bob.send(line: "hello over IPv6")
        #expect(await host.line(containing: "hello over IPv6") != nil, "host: \(host.text)")
        bob.send(line: "50")
        #expect(await bob.line(containing: "you guessed 50: too high") != nil, "bob: \(bob.text)")

        let code = try #require(codeLine.firstMatch(of: /gn1-[a-z2-7]+/).map { String($0.output) })
        #expect(try JoinCode(parsing: code).addresses.allSatisfy { $0.hasPrefix("fe80:") }, "the code carries the link-local address")
        let carol = try lan.guessnum(on: 1, ["join", code, "--name", "carol"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Welcome, carol!", within: .seconds(30)) != nil, "carol: \(carol.text)")

        let port = try #require(host.text.firstMatch(of: /join \[[^\]]+\]:(\d+)/).map { String($0.output.1) })
        let dave = try lan.guessnum(on: 1, ["join", "[\(hostAddress)]:\(port)", "--name", "dave"])
        defer { dave.signal(SIGKILL) }
        #expect(await dave.line(containing: "Welcome, dave!", within: .seconds(30)) != nil, "dave: \(dave.text)")
        dave.send(line: "42")
        #expect(await dave.line(containing: "you guessed 42: correct!") != nil, "dave: \(dave.text)")
        #expect(await bob.line(containing: "dave guessed 42") != nil, "bob sees the round won: \(bob.text)")
    }
}
