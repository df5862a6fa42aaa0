import Foundation
import MultipeerTestSupport
import Testing

/// `guessnum doctor` on the test LAN, as root (so its firewall check runs), with the faults it
/// must name: avahi-daemon stopped, a firewall dropping the game's port, a switch that drops
/// multicast.
@Suite("guessnum doctor on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.doctor), .timeLimit(.minutes(2)))
struct DoctorLANTests {
    let lan = TestLAN.doctor

    /// Runs `guessnum doctor` with `arguments` on `host` and waits for it to end.
    func doctor(on host: Int, _ arguments: [String] = []) async throws -> (status: Int32?, text: String) {
        let process = try lan.guessnum(on: host, ["doctor"] + arguments)
        process.closeInput()
        let status = await process.exitStatus(within: .seconds(30))
        if status == nil { process.signal(SIGKILL) }
        return (status, process.text)
    }

    func line(_ text: String, _ prefix: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("A healthy host: avahi runs, its own advertisement is seen, its LAN address is announced; --json parses")
    func healthy() async throws {
        let (status, text) = try await doctor(on: 0, ["--port", "4000"])
        #expect(status == 0, "\(text)")
        #expect(line(text, "✓ D-Bus system bus: reachable at ") != nil, "\(text)")
        #expect(line(text, "✓ avahi-daemon: running") != nil, "\(text)")
        #expect(line(text, "✓ own advertisement: seen by this machine's own browser") != nil, "\(text)")
        #expect(line(text, "✓ firewall: no rule blocks mDNS (UDP 5353) or TCP port 4000") != nil, "\(text)")
        let address = try await lan.address(of: 0)
        #expect(line(text, "✓ addresses a host would announce: ")?.contains("\(address) (lan0)") == true, "\(text)")

        let (jsonStatus, json) = try await doctor(on: 0, ["--json"])
        #expect(jsonStatus == 0, "\(json)")
        let objects = try json.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)") }
        let checks = objects.filter { $0["event"] as? String == "check" }.compactMap { $0["data"] as? [String: Any] }
        #expect(checks.compactMap { $0["id"] as? String } == ["dbus", "avahi", "interfaces", "advertisement", "games", "firewall", "addresses"])
        #expect(checks.first { $0["id"] as? String == "avahi" }?["status"] as? String == "ok")
        #expect((checks.first { $0["id"] as? String == "addresses" }?["items"] as? [String])?.contains(address) == true, "\(json)")
        #expect(objects.last?["event"] as? String == "summary")
    }

    @Test("avahi-daemon stopped: doctor says so and how to start it, skips its own advertisement and exits 1")
    func avahiStopped() async throws {
        try await lan.stopAvahi(on: 0)
        let result: (status: Int32?, text: String)
        do { result = try await doctor(on: 0) } catch {
            try await lan.startAvahi(on: 0)
            throw error
        }
        try await lan.startAvahi(on: 0)
        #expect(result.status == 1, "\(result.text)")
        #expect(line(result.text, "✗ avahi-daemon: not running — start it: sudo systemctl start avahi-daemon") != nil, "\(result.text)")
        #expect(line(result.text, "– own advertisement: skipped (avahi-daemon is not running)") != nil, "\(result.text)")
        #expect(line(result.text, "✓ D-Bus system bus") != nil, "the bus still runs: \(result.text)")
    }

    @Test("A firewall dropping the game's port: doctor --port names the rule, its table and chain, and exits 1")
    func firewall() async throws {
        try await lan.script(["firewall", lan.name, "0", "4000", "drop"])
        let result: (status: Int32?, text: String)
        do { result = try await doctor(on: 0, ["--port", "4000"]) } catch {
            try await lan.script(["firewall", lan.name, "0", "4000", "allow"])
            throw error
        }
        try await lan.script(["firewall", lan.name, "0", "4000", "allow"])
        #expect(result.status == 1, "\(result.text)")
        let firewall = line(result.text, "✗ firewall: ")
        #expect(firewall?.contains("table inet gnlanfw, chain input: tcp dport 4000 drop") == true, "\(result.text)")
        #expect(firewall?.contains("sudo nft insert rule inet gnlanfw input tcp dport 4000 accept") == true, "\(result.text)")
        let (after, text) = try await doctor(on: 0, ["--port", "4000"])
        #expect(after == 0 && line(text, "✓ firewall: ") != nil, "allowed again: \(text)")
    }

    @Test("Not root: the firewall check is skipped and says to run doctor with sudo; the other checks run")
    func notRoot() async throws {
        let process = try lan.start(
            on: 0, ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", try guessnumExecutable().path, "doctor"],
            environment: personEnvironment())
        process.closeInput()
        let status = await process.exitStatus(within: .seconds(30))
        #expect(status == 0, "\(process.text)")
        #expect(line(process.text, "– firewall: skipped (needs root: run `sudo ")?.hasSuffix(" doctor`)") == true, "\(process.text)")
        #expect(line(process.text, "✓ own advertisement: seen") != nil, "\(process.text)")
        #expect(process.text.contains("1 check skipped: firewall."), "\(process.text)")
    }

    @Test("Multicast blocked at the switch: doctor sees its own advertisement but no other game, and suggests the join code; allowed, it sees the game")
    func multicastBlocked() async throws {
        try await lan.setMulticastDNS(blocked: true)
        let host = try lan.guessnum(on: 1, ["host", "--name", "hal"])
        defer { host.signal(SIGKILL) }
        let result: (status: Int32?, text: String)
        do {
            _ = try #require(await host.line(containing: "join gn1-"), "host: \(host.text)")
            result = try await doctor(on: 0)
        } catch {
            try await lan.setMulticastDNS(blocked: false)
            throw error
        }
        try await lan.setMulticastDNS(blocked: false)
        #expect(result.status == 0, "warnings only: \(result.text)")
        #expect(line(result.text, "✓ own advertisement: seen by this machine's own browser") != nil, "\(result.text)")
        let games = line(result.text, "! games on the LAN: none from other machines seen")
        #expect(games?.contains("likely filters multicast") == true, "\(result.text)")
        #expect(games?.contains("guessnum join gn1-…") == true, "\(result.text)")

        let (status, text) = try await doctor(on: 0)
        #expect(status == 0, "\(text)")
        #expect(line(text, "✓ games on the LAN: 1 seen: hal (") != nil, "multicast allowed again: \(text)")
    }
}
