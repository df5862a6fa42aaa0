import Foundation
@testable import GuessnumApp
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerTesting
import Testing

@Suite("Doctor: the checks, their lines and the summary", .timeLimit(.minutes(1)))
struct DoctorTests {
    static let lan = NetworkInterface(
        name: "eth0", isUp: true, isLoopback: false, supportsMulticast: true,
        addresses: [.init(interface: "eth0", address: "192.168.1.20", isIPv6: false), .init(interface: "eth0", address: "fe80::1", isIPv6: true)])
    static let loopback = NetworkInterface(
        name: "lo", isUp: true, isLoopback: true, supportsMulticast: false, addresses: [.init(interface: "lo", address: "127.0.0.1", isIPv6: false)])
    static let docker = NetworkInterface(
        name: "docker0", isUp: true, isLoopback: false, supportsMulticast: true, addresses: [.init(interface: "docker0", address: "172.17.0.1", isIPv6: false)])

    /// A machine where everything works unless told otherwise; no real daemon, bus or program is used.
    static func machine(
        root: Bool = true, avahi: DoctorSystem.AvahiState = .running(version: "avahi 0.8"), discovery: InMemoryDiscovery = InMemoryDiscovery(),
        interfaces: [NetworkInterface] = [loopback, lan, docker], bus: UnixSocketProbe.Outcome = .accepted, ruleset: String = ""
    ) -> DoctorSystem {
        var system = DoctorSystem(
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/run/test/bus"], isRoot: root, fileExists: { $0 == "/usr/sbin/nft" || $0 == "/usr/sbin/avahi-daemon" },
            avahiState: { avahi }, discovery: discovery, interfaces: { interfaces },
            runProgram: { path, arguments in
                path == "/usr/sbin/nft" && arguments == ["list", "ruleset"]
                    ? ExternalCommand.Outcome(status: 0, output: ruleset, error: "") : ExternalCommand.Outcome(status: 1, output: "", error: "unexpected")
            }, listeningTime: .milliseconds(200))
        system.connectToBus = { _ in bus }
        return system
    }

    @Test("D-Bus addresses: the standard socket when unset, the first Unix path or abstract name, escapes undone")
    func systemBusAddress() {
        #expect(SystemBusAddress(environment: [:]) == .path("/run/dbus/system_bus_socket"))
        #expect(SystemBusAddress(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/h0/run/dbus/system_bus_socket"]) == .path("/tmp/h0/run/dbus/system_bus_socket"))
        #expect(SystemBusAddress(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "tcp:host=x,port=1;unix:guid=ab,path=/a%20b"]) == .path("/a b"))
        #expect(SystemBusAddress(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:abstract=/tmp/dbus-XYZ,guid=1"]) == .abstract("/tmp/dbus-XYZ"))
        #expect(SystemBusAddress(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "tcp:host=localhost,port=9"]) == .other("tcp:host=localhost,port=9"))
        #expect(SystemBusAddress(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=%zz"]) == .other("unix:path=%zz"))
        #expect(UnixSocketProbe.connect(to: .path("/nonexistent/guessnum-doctor-test")) == .missing)
    }

    @Test("A healthy machine: every check passes but the games one, which warns that nothing else is seen")
    func healthy() async {
        var lines: [String] = []
        let report = await Doctor(system: Self.machine(), port: 4000).run { lines.append(DoctorText(style: .plain, json: false).line($0)) }
        #expect(report.checks.map(\.id) == ["dbus", "avahi", "interfaces", "advertisement", "games", "firewall", "addresses"])
        #expect(report.checks.map(\.status) == [.ok, .ok, .ok, .ok, .warning, .ok, .ok], "\(lines)")
        #expect(report.exitStatus == 0)
        #expect(lines[0] == "✓ D-Bus system bus: reachable at /run/test/bus")
        #expect(lines[1] == "✓ avahi-daemon: running (avahi 0.8)")
        #expect(lines[2] == "✓ network interfaces: lo 127.0.0.1 (loopback); eth0 192.168.1.20, fe80::1 (multicast); docker0 172.17.0.1 (multicast, a container bridge)")
        #expect(lines[3].hasPrefix("✓ own advertisement: seen by this machine's own browser"))
        #expect(lines[4].hasPrefix("! games on the LAN: none from other machines seen"))
        #expect(lines[4].contains("guessnum join gn1-…"))
        #expect(lines[5] == "✓ firewall: no rule blocks mDNS (UDP 5353) or TCP port 4000")
        #expect(lines[6] == "✓ addresses a host would announce: 192.168.1.20 (eth0); left out: docker0 (a container bridge)")
        #expect(report.summary == "No problems found; 1 warning above.")
    }

    @Test("With games listed in a site's zone, seeing none from other machines on the LAN is no warning: they are found through the zone")
    func siteGamesAreNoWarning() async throws {
        let checks = await AdvertisementCheck.run(Self.machine(), avahiRunning: true, siteGames: ["gus", "ann"])
        let games = try #require(checks.first { $0.id == "games" })
        #expect(games.status == .ok, "\(games)")
        #expect(games.finding.hasPrefix("none from other machines seen on this LAN within"), "\(games)")
        #expect(games.finding.hasSuffix("; games are found through the site's zone instead (gus, ann)"), "\(games)")
        #expect(games.fix == nil)
        let alone = await AdvertisementCheck.run(Self.machine(), avahiRunning: true)
        #expect(alone.first { $0.id == "games" }?.status == .warning, "no zone: the warning stays")
    }

    @Test("A game on another machine is listed; one on this machine does not count as seen across the network")
    func gamesSeen() async throws {
        let discovery = InMemoryDiscovery()
        let elsewhere = try PeerID(displayName: "hal")
        let publication = try await discovery.publish(
            Advertisement(serviceType: GameAdvertisement.serviceType, peer: elsewhere, port: 4000, info: DiscoveryInfo())) { _ in }
        let report = await Doctor(system: Self.machine(discovery: discovery), port: nil).run()
        let games = try #require(report.checks.first { $0.id == "games" })
        #expect(games.status == .ok)
        #expect(games.finding.hasPrefix("1 seen: hal ("))
        await publication.cancel()
    }

    @Test("avahi-daemon stopped: it says so and how to start it; the advertisement checks are skipped; exit status 1")
    func avahiStopped() async {
        let report = await Doctor(system: Self.machine(avahi: .notRunning), port: nil).run()
        let text = DoctorText(style: .plain, json: false)
        #expect(text.line(report.checks[1]) == "✗ avahi-daemon: not running — start it: sudo systemctl start avahi-daemon")
        #expect(text.line(report.checks[3]) == "– own advertisement: skipped (avahi-daemon is not running)")
        #expect(report.skipped.map(\.id) == ["advertisement", "games"])
        #expect(report.exitStatus == 1)
        #expect(report.summary == "1 problem found; the fix is above. 2 checks skipped: own advertisement, games on the LAN.")
    }

    @Test("No system bus: the D-Bus check fails with its fix and avahi is skipped; avahi not installed says to install it")
    func noBus() async {
        let report = await Doctor(system: Self.machine(avahi: .notRunning, bus: .missing), port: nil).run()
        #expect(report.checks[0].status == .failed)
        #expect(report.checks[0].finding == "not running: there is no socket at /run/test/bus")
        #expect(report.checks[0].fix?.contains("sudo systemctl start dbus") == true)
        #expect(report.checks[1].status == .skipped)
        var missing = Self.machine(avahi: .notRunning)
        missing.fileExists = { _ in false }
        let check = await AvahiDaemonCheck.run(missing, busReachable: true)
        #expect(check.finding == "not installed (/usr/sbin/avahi-daemon is missing)")
        #expect(check.fix?.contains("sudo apt install avahi-daemon") == true)
    }

    @Test("Not root: the firewall check is skipped and says to run it with sudo; no program is run")
    func notRoot() async {
        var system = Self.machine(root: false)
        system.runProgram = { _, _ in Issue.record("no program runs without root"); return ExternalCommand.Outcome(status: 1, output: "", error: "") }
        system.programCommand = "guessnum"
        let check = await FirewallCheck.run(system, port: 4000)
        #expect(check.status == .skipped)
        #expect(DoctorText(style: .plain, json: false).line(check) == "– firewall: skipped (needs root: run `sudo guessnum doctor --port 4000`)")
        var denied = Self.machine()
        denied.runProgram = { _, _ in ExternalCommand.Outcome(status: 1, output: "", error: "Error: Operation not permitted") }
        #expect(await FirewallCheck.run(denied, port: nil).status == .skipped)
        var noTools = Self.machine()
        noTools.fileExists = { _ in false }
        #expect(await FirewallCheck.run(noTools, port: nil).finding == "neither nft nor iptables-save is installed, so no firewall rules could be read")
    }

    @Test("A dropped port fails the firewall check with the rule and the command that allows it")
    func firewallFails() async {
        let report = await Doctor(system: Self.machine(ruleset: DoctorFirewallTests.portDropped), port: 4000).run()
        let firewall = report.checks[5]
        #expect(DoctorText(style: .plain, json: false).line(firewall)
            == "✗ firewall: table inet gnlanfw, chain input: tcp dport 4000 drop (blocks TCP port 4000) — allow it: sudo nft insert rule inet gnlanfw input tcp dport 4000 accept (or ask whoever manages this machine's firewall)")
        #expect(report.exitStatus == 1)
    }

    @Test("A daemon that does not answer: the check gives up after its limit instead of hanging")
    func avahiHangs() async {
        let system = Self.machine()
        var hung = system
        hung.avahiState = {
            try? await Task.sleep(for: .seconds(2))
            return .notRunning
        }
        #expect(await AvahiDaemonCheck.state(of: hung, within: .milliseconds(100)) == nil)
        #expect(await AvahiDaemonCheck.state(of: system, within: .seconds(5)) == .running(version: "avahi 0.8"))
    }

    @Test("Other programs: their output and status are collected; one that runs too long is killed; a missing one is said to be")
    func externalCommand() async {
        let echo = await ExternalCommand.run("/bin/echo", ["hello"])
        #expect(echo == ExternalCommand.Outcome(status: 0, output: "hello\n", error: ""))
        let slow = await ExternalCommand.run("/bin/sleep", ["10"], timeout: .milliseconds(200))
        #expect(slow.timedOut && slow.status == nil)
        let missing = await ExternalCommand.run("/nonexistent/nft", ["list", "ruleset"])
        #expect(missing.status == nil && missing.error.contains("could not be started"))
    }

    @Test("Interfaces: only loopback fails; a LAN interface without multicast warns, or fails when it is the only one")
    func interfaces() {
        #expect(InterfacesCheck.run([Self.loopback]).status == .failed)
        #expect(InterfacesCheck.run([]).finding == "no interface is up")
        var quiet = Self.lan
        quiet.supportsMulticast = false
        #expect(InterfacesCheck.run([Self.loopback, quiet]).status == .failed)
        var wifi = Self.lan
        wifi.name = "wlan0"
        let mixed = InterfacesCheck.run([Self.loopback, quiet, wifi])
        #expect(mixed.status == .warning)
        #expect(mixed.fix == "turn multicast on: sudo ip link set eth0 multicast on")
        #expect(AnnouncedAddressesCheck.run([Self.loopback]).status == .warning)
    }

    @Test("--json: one JSON object a line, each check as a check event and the summary last")
    func json() throws {
        let report = DoctorReport(checks: [
            DoctorCheck(id: "avahi", title: "avahi-daemon", status: .failed, finding: "not running", fix: "start it"),
            DoctorCheck(id: "firewall", title: "firewall", status: .skipped, finding: "needs root"),
            DoctorCheck(id: "addresses", title: "addresses a host would announce", status: .ok, finding: "10.0.0.2 (eth0)", items: ["10.0.0.2"]),
        ])
        let text = DoctorText(style: TextStyle(isColored: true), json: true)
        let lines = report.checks.map(text.line) + [text.summary(report)]
        for line in lines { #expect(!line.contains("\n") && !line.contains("\u{1B}")) }
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["event"] as? String } == ["check", "check", "check", "summary"])
        let first = try #require(objects[0]["data"] as? [String: Any])
        #expect(first["id"] as? String == "avahi" && first["status"] as? String == "failed" && first["fix"] as? String == "start it")
        #expect((objects[2]["data"] as? [String: Any])?["items"] as? [String] == ["10.0.0.2"])
        let summary = try #require(objects[3]["data"] as? [String: Any])
        #expect(summary["failed"] as? Int == 1 && summary["passed"] as? Int == 1 && summary["skipped"] as? [String] == ["firewall"])
        #expect(summary["text"] as? String == "1 problem found; the fix is above. 1 check skipped: firewall.")
    }

    @Test("The summary: all passed; problems and warnings counted; skipped checks named")
    func summary() {
        func report(_ statuses: [DoctorCheck.Status]) -> DoctorReport {
            DoctorReport(checks: statuses.enumerated().map { DoctorCheck(id: "c\($0.offset)", title: "check \($0.offset)", status: $0.element, finding: "x") })
        }
        #expect(report([.ok, .ok]).summary == "All checks passed.")
        #expect(report([.ok, .skipped]).summary == "No problems found. 1 check skipped: check 1.")
        #expect(report([.failed, .failed, .warning]).summary == "2 problems and 1 warning found; the fixes are above.")
        #expect(report([.failed, .failed]).exitStatus == 1)
        #expect(report([.warning, .skipped]).exitStatus == 0)
    }
}
