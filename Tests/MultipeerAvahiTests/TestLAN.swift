import Foundation
import MultipeerTestSupport
import Testing

/// The test LAN of `scripts/test-lan`, driven from the tests: hosts in network namespaces, each
/// with its own avahi-daemon. Processes started on a host talk to that host's daemon.
final class TestLAN: Sendable {
    /// Three hosts: enough for a publisher, a browser and a second publisher.
    static let shared = TestLAN(name: "gnlan" + String(getpid(), radix: 36), hosts: 3)

    let name: String
    let hosts: Int

    init(name: String, hosts: Int) {
        self.name = name
        self.hosts = hosts
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/test-lan")
    }

    /// Runs the script with `arguments` and waits; throws with its output when it fails.
    @discardableResult
    func script(_ arguments: [String], within timeout: Duration = .seconds(60)) async throws -> String {
        let process = try ChildProcess(Self.script, arguments)
        process.closeInput()
        let status = await process.exitStatus(within: timeout)
        guard status == 0 else {
            throw TestLANFailure("scripts/test-lan \(arguments.joined(separator: " ")) failed (\(status.map(String.init) ?? "timed out")): \(process.text)")
        }
        return process.text
    }

    func up() async throws { try await script(["up", name, String(hosts)]) }
    func down() async { _ = try? await script(["down", name]) }
    func stopAvahi(on host: Int) async throws { try await script(["avahi-stop", name, String(host)]) }
    func startAvahi(on host: Int) async throws { try await script(["avahi-start", name, String(host)]) }

    /// Host `host`'s IPv4 address.
    func address(of host: Int) async throws -> String {
        let info = try await script(["info", name, String(host)])
        guard let field = info.split(separator: " ").first(where: { $0.hasPrefix("address=") }) else {
            throw TestLANFailure("no address in: \(info)")
        }
        return String(field.dropFirst("address=".count)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `arguments` (an executable and its arguments) on host `host`.
    func start(on host: Int, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Self.script, ["exec", name, String(host)] + arguments)
    }

    /// Starts the discovery probe on host `host`.
    func probe(on host: Int, _ arguments: [String]) throws -> ProbeProcess {
        ProbeProcess(try start(on: host, [try builtExecutable(named: "DiscoveryProbe").path] + arguments))
    }
}

struct TestLANFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Sets the test LAN up around a suite and tears it down afterwards, even when tests fail.
struct TestLANScope: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try Self.checkPrerequisites()
        try await TestLAN.shared.up()
        do {
            try await function()
        } catch {
            await TestLAN.shared.down()
            throw error
        }
        await TestLAN.shared.down()
    }

    /// The LAN needs root and the Debian packages `.ci/run` installs; say so plainly if not.
    static func checkPrerequisites() throws {
        if getuid() != 0 {
            throw TestLANFailure("The discovery tests build a LAN of network namespaces and need root; run them as root (CI does), or set GUESSNUM_SKIP_LAN_TESTS=1 to skip them.")
        }
        for tool in ["/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/dbus-daemon"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestLANFailure("\(tool) is missing; install the Debian packages avahi-daemon avahi-utils dbus (scripts/test does).")
        }
    }
}

extension Trait where Self == TestLANScope {
    /// Runs the suite inside the test LAN.
    static var testLAN: Self { Self() }
}

/// Whether the LAN suites were switched off on purpose (`GUESSNUM_SKIP_LAN_TESTS=1`).
let lanTestsEnabled = ProcessInfo.processInfo.environment["GUESSNUM_SKIP_LAN_TESTS"] != "1"
