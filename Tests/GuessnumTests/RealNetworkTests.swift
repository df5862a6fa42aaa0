import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// Networks that are not a clean bridge: here, a switch that drops multicast (as Wi-Fi that
/// filters it does), so that discovery finds nothing while unicast still works.
@Suite("Real networks on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.networks), .timeLimit(.minutes(3)))
struct RealNetworkTests {
    let lan = TestLAN.networks

    func guessnum(on host: Int, _ arguments: [String], environment: [String: String] = personEnvironment()) throws -> ChildProcess {
        try lan.start(on: host, [try guessnumExecutable().path] + arguments, environment: environment)
    }

    @Test("Multicast blocked: discovery finds nothing, the host's join code works and pins its key; a code for another host is refused")
    func joinCodeWhereDiscoveryCannotReach() async throws {
        try await lan.setMulticastDNS(blocked: true)
        let host = try guessnum(on: 0, ["host", "--secret", "42", "--name", "hal"])
        defer { host.signal(SIGKILL) }
        let codeLine = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
        let code = try #require(codeLine.firstMatch(of: /gn1-[a-z2-7]+/).map { String($0.output) })
        let address = try await lan.address(of: 0)
        #expect(host.text.contains("join \(address):"), "the LAN address is the one shown: \(host.text)")

        let lost = try guessnum(on: 1, ["join", "--game", "hal", "--name", "bob", "--timeout", "4"])
        #expect(await lost.exitStatus(within: .seconds(15)) == 3)
        #expect(lost.text.contains("No game called “hal” was found within 4 s."), "discovery cannot reach: \(lost.text)")

        let bob = try guessnum(on: 1, ["join", code, "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(20)) != nil, "bob: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "bob: \(bob.text)")

        // The same addresses and port, but the identity of someone else: refused before anything is sent.
        let parsed = try JoinCode(parsing: code)
        let impostor = JoinCode(identity: UUID(), port: parsed.port, addresses: parsed.addresses).text
        let carol = try guessnum(on: 2, ["join", impostor, "--name", "carol"])
        #expect(await carol.exitStatus(within: .seconds(20)) == 3, "carol: \(carol.text)")
        #expect(carol.text.contains("This join code is for another host"), "carol: \(carol.text)")
        #expect(!host.text.contains("carol joined"))
        try await lan.setMulticastDNS(blocked: false)
    }
}
