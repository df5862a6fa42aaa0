import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// Networks that are not a clean bridge: a switch that drops multicast (as Wi-Fi that filters it
/// does), so that discovery finds nothing while unicast still works; a host with a container
/// bridge and a second network the players are not on; a host whose firewall drops the game's
/// port; a host without its avahi-daemon.
@Suite("Real networks on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.networks), .timeLimit(.minutes(3)))
struct RealNetworkTests {
    let lan = TestLAN.networks

    @Test("Multicast blocked: discovery finds nothing, the host's join code works and pins its key; a code for another host is refused")
    func joinCodeWhereDiscoveryCannotReach() async throws {
        try await lan.setMulticastDNS(blocked: true)
        let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", "hal"])
        defer { host.signal(SIGKILL) }
        let codeLine = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
        let code = try #require(codeLine.firstMatch(of: /gn1-[a-z2-7]+/).map { String($0.output) })
        let address = try await lan.address(of: 0)
        #expect(host.text.contains("join \(address):"), "the LAN address is the one shown: \(host.text)")

        let lost = try lan.guessnum(on: 1, ["join", "--game", "hal", "--name", "bob", "--timeout", "4"])
        #expect(await lost.exitStatus(within: .seconds(30)) == 3)
        #expect(lost.text.contains("No game called “hal” was found within 4 s."), "discovery cannot reach: \(lost.text)")

        let bob = try lan.guessnum(on: 1, ["join", code, "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        // Guess-the-number's own /help, as the other games have theirs.
        bob.send(line: "/help")
        #expect(await bob.line(containing: "this round's guesses") != nil, "bob: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "bob: \(bob.text)")

        // The same addresses and port, but the identity of someone else: refused before anything is sent.
        let parsed = try JoinCode(parsing: code)
        let impostor = JoinCode(identity: UUID(), port: parsed.port, addresses: parsed.addresses).text
        let carol = try lan.guessnum(on: 2, ["join", impostor, "--name", "carol"])
        #expect(await carol.exitStatus(within: .seconds(30)) == 3, "carol: \(carol.text)")
        #expect(carol.text.contains("This join code is for another host"), "carol: \(carol.text)")
        #expect(!host.text.contains("carol joined"))
        try await lan.setMulticastDNS(blocked: false)
    }

    /// The addresses a process tried to connect to, in the order it started the attempts (its
    /// debug log's "Trying an address." lines).
    func attempts(in text: String) -> [String] {
        text.split(separator: "\n").filter { $0.contains("Trying an address.") }.compactMap { line in
            line.firstMatch(of: /address=(\S+)/).map { String($0.output.1) }
        }
    }

    @Test("A host with a container bridge and a second network: the bridge is not announced, and players try the address on their own network first")
    func hostWithSeveralInterfaces() async throws {
        try await lan.addBridge(on: 2, interface: "docker0", cidr: "172.17.0.1/16")
        try await lan.addBridge(on: 2, interface: "eth1", cidr: "10.99.0.1/24")
        let address = try await lan.address(of: 2)
        let host = try lan.guessnum(on: 2, ["host", "--secret", "42", "--name", "dock"])
        defer { host.signal(SIGKILL) }
        let codeLine = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
        #expect(host.text.contains("join \(address):"), "the LAN address is the one shown: \(host.text)")
        #expect(await host.line(containing: "docker0 (a container bridge)") != nil, "the bridge is named as left out: \(host.text)")
        let code = try JoinCode(parsing: String(try #require(codeLine.firstMatch(of: /gn1-[a-z2-7]+/)).output))
        #expect(code.addresses == [address, "10.99.0.1"], "both LAN interfaces, the container bridge left out: \(code.addresses)")

        // Found by discovery: the address on the player's own network is tried first.
        let bob = try lan.guessnum(on: 1, ["join", "--game", "dock", "--name", "bob", "--log-level", "debug"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        // `--game` joins as soon as the game is listed, which may be with its first resolved address
        // only (its link-local one); when the LAN address is known, it is tried first.
        let tried = attempts(in: bob.text)
        #expect(!tried.isEmpty && (tried.first == "\(address):\(code.port)" || !tried.contains("\(address):\(code.port)")), "bob: \(bob.text)")
        #expect(!tried.contains { $0.hasPrefix("10.99.") || $0.hasPrefix("172.17.") }, "the unreachable networks are never announced: \(bob.text)")

        // A code listing the unreachable network first: still the player's own network first.
        let reversed = JoinCode(identity: code.identity, port: code.port, addresses: ["10.99.0.1", address]).text
        let carol = try lan.guessnum(on: 0, ["join", reversed, "--name", "carol", "--log-level", "debug"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Welcome, carol!", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(attempts(in: carol.text).first == "\(address):\(code.port)", "carol: \(carol.text)")
        carol.send(line: "42")
        #expect(await carol.line(containing: "you guessed 42: correct!") != nil, "carol: \(carol.text)")
    }

    @Test("A firewall on the host drops its port: the player is told the game was found but does not answer, at which address")
    func firewallDropsTheGamesPort() async throws {
        let port = 47_011
        try await lan.setFirewall(on: 0, port: port, dropping: true)
        let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", "walled", "--port", String(port)])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "join gn1-") != nil, "host: \(host.text)")
        let address = try await lan.address(of: 0)
        let bob = try lan.guessnum(on: 1, ["join", "--game", "walled", "--name", "bob", "--timeout", "20"])
        #expect(await bob.exitStatus(within: .seconds(40)) == 3, "bob: \(bob.text)")
        // At every address discovery resolved: a game is listed at its first, and a join that fails
        // there is tried again once at the addresses resolved since (its IPv4 and link-local ones).
        let told = try #require(bob.text.firstMatch(of: /walled's game was found on the network, but nothing answers at (.+): a firewall on walled's machine may be dropping the game's port/), "bob: \(bob.text)")
        let tried = told.output.1.replacing(" or ", with: ", ").split(separator: ", ").map(String.init)
        #expect(!tried.isEmpty && tried.allSatisfy { $0 == "\(address):\(port)" || ($0.hasPrefix("[fe80:") && $0.hasSuffix("%lan0]:\(port)")) }, "bob: \(bob.text)")
        #expect(tried.contains("\(address):\(port)"), "the LAN address is among those tried: \(bob.text)")
        #expect(bob.text.contains("guessnum doctor --port \(port)"), "bob: \(bob.text)")
        #expect(!host.text.contains("bob joined"))
        try await lan.setFirewall(on: 0, port: port, dropping: false)
    }

    @Test("Without avahi-daemon the host says it is not listed, and its join code still brings players in")
    func noDaemonStillPlaysByCode() async throws {
        try await lan.stopAvahi(on: 0)
        do {
            let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", "quiet"])
            defer { host.signal(SIGKILL) }
            let codeLine = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
            // Said when discovery reports the missing daemon, which may come after the code.
            #expect(await host.line(containing: "avahi-daemon is not running") != nil, "host: \(host.text)")
            let code = try #require(codeLine.firstMatch(of: /gn1-[a-z2-7]+/).map { String($0.output) })
            let bob = try lan.guessnum(on: 1, ["join", code, "--name", "bob"])
            defer { bob.signal(SIGKILL) }
            #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
            bob.send(line: "42")
            #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "bob: \(bob.text)")
        } catch {
            try await lan.startAvahi(on: 0)
            throw error
        }
        try await lan.startAvahi(on: 0)
    }

    @Test("Multicast blocked: a game joined before is found where it was, after its host restarted (on the port it had); another key there is not listed")
    func rememberedGame() async throws {
        let halHome = personEnvironment(), bobHome = personEnvironment()
        var host = try lan.guessnum(on: 0, ["host", "--name", "hal", "--secret", "42"], environment: halHome)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "join gn1-") != nil, "host: \(host.text)")
        let port = try #require(host.text.firstMatch(of: /join [0-9.]+:(\d+)/).map { String($0.output.1) })
        let bob = try lan.guessnum(on: 1, ["join", "--game", "hal", "--name", "bob"], environment: bobHome)
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        bob.closeInput()
        #expect(await bob.exitStatus(within: .seconds(30)) == 0, "bob: \(bob.text)")

        // The host crashes and comes back: on the port it had, though none was given.
        host.signal(SIGKILL)
        _ = await host.exitStatus()
        try await lan.setMulticastDNS(blocked: true)
        // bob's avahi-daemon forgets what it heard before multicast was blocked (it would still
        // offer hal from its cache: a crashed host says no goodbye).
        try await lan.stopAvahi(on: 1)
        try await lan.startAvahi(on: 1)
        host = try lan.guessnum(on: 0, ["host", "--name", "hal", "--secret", "42"], environment: halHome)
        #expect(await host.line(containing: "join gn1-") != nil, "host: \(host.text)")
        #expect(host.text.firstMatch(of: /join [0-9.]+:(\d+)/).map { String($0.output.1) } == port, "the same port: \(host.text)")

        let again = try lan.guessnum(on: 1, ["join", "--game", "hal", "--name", "bob", "--timeout", "15"], environment: bobHome)
        defer { again.signal(SIGKILL) }
        #expect(await again.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "found where it was: \(again.text)")
        #expect(again.text.contains("remembered: not announced here"), "listed as remembered, not discovered: \(again.text)")
        again.send(line: "42")
        #expect(await again.line(containing: "you guessed 42: correct!") != nil, "bob: \(again.text)")
        again.signal(SIGKILL)

        // Someone else's "hal" at that address and port: its key is not hal's, so it is not listed.
        host.signal(SIGKILL)
        _ = await host.exitStatus()
        let impostor = try lan.guessnum(on: 0, ["host", "--name", "hal", "--port", port])
        defer { impostor.signal(SIGKILL) }
        #expect(await impostor.line(containing: "join gn1-") != nil, "impostor: \(impostor.text)")
        let fooled = try lan.guessnum(on: 1, ["join", "--game", "hal", "--name", "bob", "--timeout", "6"], environment: bobHome)
        #expect(await fooled.exitStatus(within: .seconds(30)) == 3, "bob: \(fooled.text)")
        #expect(fooled.text.contains("No game called “hal” was found"), "bob: \(fooled.text)")
        #expect(!impostor.text.contains("bob joined"))
        try await lan.setMulticastDNS(blocked: false)
    }
}
