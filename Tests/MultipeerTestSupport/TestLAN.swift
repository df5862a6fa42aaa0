import Foundation
import Testing

/// The test LAN of `scripts/test-lan`, driven from the tests: hosts in network namespaces, each
/// with its own avahi-daemon. Processes started on a host talk to that host's daemon.
///
/// Each suite that needs a LAN has its own (suites run in parallel, and one of them stops
/// daemons); it holds it through the ``TestLANScope`` trait, which brings it up before the
/// suite's first test and tears it down after its last, even when tests fail.
public actor TestLAN {
    /// The start of this test run's LAN names: `gnlan` and the run's number — the one
    /// `scripts/test` gives (`GUESSNUM_TEST_LAN_ID`), so that it removes this run's LANs and no
    /// other's, or this process's ID. A letter follows it in every name.
    static let prefix = "gnlan" + (ProcessInfo.processInfo.environment["GUESSNUM_TEST_LAN_ID"].flatMap { UInt($0) }.map(String.init) ?? String(getpid()))

    /// The discovery suite's LAN: three hosts, for publishers and browsers.
    public static let discovery = TestLAN(name: prefix + "d", hosts: 3)
    /// The game suite's LAN: four hosts, a game host and three players.
    public static let game = TestLAN(name: prefix + "g", hosts: 4)
    /// The fault suite's LAN: a game host and four players, whose links and processes the tests
    /// break on purpose (so no other suite shares it).
    public static let faults = TestLAN(name: prefix + "f", hosts: 6)
    /// The real-network suite's LAN: a host and two players, whose switch the tests make drop
    /// multicast.
    public static let networks = TestLAN(name: prefix + "n", hosts: 3)
    /// An IPv6-only LAN (link-local addresses and nothing else): a host and a player.
    public static let ipv6Only = TestLAN(name: prefix + "v6", hosts: 2)
    /// The doctor suite's LAN: a host that `guessnum doctor` examines while the tests stop its
    /// daemon, firewall its port and make the switch drop multicast, and one that hosts a game.
    public static let doctor = TestLAN(name: prefix + "x", hosts: 2)

    /// The file drop suite's LAN: a receiver and a sender, whose link the tests slow and cut.
    public static let drop = TestLAN(name: prefix + "p", hosts: 2)
    /// The LAN of the room games' tests: a host and two players.
    public static let rooms = TestLAN(name: prefix + "r", hosts: 3)
    /// Two subnets of a site, joined by a router that does not pass multicast (``route(to:)``):
    /// a host in the first, players in the second.
    public static let subnetA = TestLAN(name: prefix + "sa", hosts: 1)
    public static let subnetB = TestLAN(name: prefix + "sb", hosts: 2)

    public nonisolated let name: String
    public nonisolated let hosts: Int
    private var holders = 0
    private var starting: Task<Void, any Error>?

    public init(name: String, hosts: Int) {
        self.name = name
        self.hosts = hosts
    }

    /// Brings the LAN up unless a suite holds it already.
    public func acquire() async throws {
        if holders == 0 {
            if starting == nil { starting = Task { try await self.script(["up", name, String(hosts)]) } }
            do { try await starting?.value } catch {
                starting = nil
                throw error
            }
        }
        holders += 1
    }

    /// Tears the LAN down when the last suite lets go.
    public func release() async {
        holders -= 1
        guard holders == 0 else { return }
        starting = nil
        await down()
    }

    public static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/test-lan")
    }

    /// Runs the script with `arguments` and waits; throws with its output when it fails.
    @discardableResult
    public nonisolated func script(_ arguments: [String], within timeout: Duration = .seconds(60)) async throws -> String {
        let process = try ChildProcess(Self.script, arguments)
        process.closeInput()
        let status = await process.exitStatus(within: timeout)
        guard status == 0 else {
            throw TestLANFailure("scripts/test-lan \(arguments.joined(separator: " ")) failed (\(status.map(String.init) ?? "timed out")): \(process.text)")
        }
        return process.text
    }

    nonisolated func down() async { _ = try? await script(["down", name]) }
    public nonisolated func stopAvahi(on host: Int) async throws { try await script(["avahi-stop", name, String(host)]) }
    public nonisolated func startAvahi(on host: Int) async throws { try await script(["avahi-start", name, String(host)]) }

    /// Takes host `host`'s link to the switch down (`up` false) or brings it back up.
    public nonisolated func setLink(of host: Int, up: Bool) async throws {
        try await script(["link", name, String(host), up ? "up" : "down"])
    }

    /// Makes the switch drop mDNS between hosts (`blocked`), as Wi-Fi that filters multicast
    /// does, or forward it again.
    public nonisolated func setMulticastDNS(blocked: Bool) async throws {
        try await script(["mdns", name, blocked ? "block" : "allow"])
    }

    /// Makes host `host` drop incoming TCP to `port` (`dropping`), as a firewall does, or
    /// accept it again.
    public nonisolated func setFirewall(on host: Int, port: Int, dropping: Bool) async throws {
        try await script(["firewall", name, String(host), String(port), dropping ? "drop" : "allow"])
    }

    /// Gives host `host` a second interface `interface` with address `cidr`, on a bridge of its
    /// own that no other host reaches (a container bridge, or a network the players are not on).
    public nonisolated func addBridge(on host: Int, interface: String, cidr: String) async throws {
        try await script(["bridge", name, String(host), interface, cidr])
    }

    /// Joins this LAN and `other` by a router that forwards unicast between them and never
    /// multicast; the router's address on this LAN is returned (`10.77.<LAN>.1`).
    @discardableResult
    public nonisolated func route(to other: TestLAN) async throws -> String {
        let said = try await script(["router", name, other.name])
        guard let subnet = said.firstMatch(of: /between (10\.77\.\d+)\.0/)?.1 else { throw TestLANFailure("no subnet in: \(said)") }
        return "\(subnet).1"
    }

    /// Gives every host of this LAN the resolver configuration DHCP would: the search domain
    /// `search` and the name server `server`.
    public nonisolated func setResolver(search: String, server: String) async throws {
        try await script(["resolver", name, search, server])
    }

    /// Starts `arguments` (an executable and its arguments) in this LAN's router.
    public nonisolated func startOnRouter(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Self.script, ["exec-router", name] + arguments)
    }

    /// Host `host`'s address: IPv4, or on an IPv6-only LAN its link-local address with `%lan0`.
    public nonisolated func address(of host: Int) async throws -> String {
        let info = try await script(["info", name, String(host)])
        guard let field = info.split(separator: " ").first(where: { $0.hasPrefix("address=") }) else {
            throw TestLANFailure("no address in: \(info)")
        }
        return String(field.dropFirst("address=".count)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the `guessnum` program with `arguments` on host `host`, as the person of
    /// `environment` (a new one by default).
    public nonisolated func guessnum(on host: Int, _ arguments: [String], environment: [String: String] = personEnvironment()) throws -> ChildProcess {
        try start(on: host, [try guessnumExecutable().path] + arguments, environment: environment)
    }

    /// Starts `arguments` (an executable and its arguments) on host `host`.
    public nonisolated func start(on host: Int, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(Self.script, ["exec", name, String(host)] + arguments, environment: environment)
    }
}

public struct TestLANFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Holds the shared test LAN around a suite, releasing it afterwards even when tests fail.
public struct TestLANScope: SuiteTrait, TestScoping {
    let lan: TestLAN

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try Self.checkPrerequisites()
        try await lan.acquire()
        do {
            try await function()
        } catch {
            await lan.release()
            throw error
        }
        await lan.release()
    }

    /// The LAN needs root and the Debian packages `.ci/run` installs; say so plainly if not.
    public static func checkPrerequisites() throws {
        if getuid() != 0 {
            throw TestLANFailure("The discovery tests build a LAN of network namespaces and need root; run them as root (CI does), or set GUESSNUM_SKIP_LAN_TESTS=1 to skip them.")
        }
        for tool in ["/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/dbus-daemon"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestLANFailure("\(tool) is missing; install the Debian packages avahi-daemon avahi-utils dbus (scripts/test does).")
        }
    }
}

extension Trait where Self == TestLANScope {
    /// Runs the suite inside `lan`.
    public static func testLAN(_ lan: TestLAN) -> Self { Self(lan: lan) }
}

/// Whether the LAN suites were switched off on purpose (`GUESSNUM_SKIP_LAN_TESTS=1`).
public let lanTestsEnabled = ProcessInfo.processInfo.environment["GUESSNUM_SKIP_LAN_TESTS"] != "1"
