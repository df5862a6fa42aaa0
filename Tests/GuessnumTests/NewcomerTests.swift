import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// What a person meets on a first run: commands that work as printed, names, ranges and
/// mistakes on the command line.
@Suite("A newcomer's first run", .timeLimit(.minutes(2)))
struct NewcomerTests {
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]
    static func person() -> [String: String] { personEnvironment().merging(noBus) { $1 } }

    func guessnum(_ arguments: [String], environment: [String: String] = person(), unsetting: Set<String> = []) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment, unsetting: unsetting)
    }

    /// The command after "directly: " in a host's banner, split into words.
    func directCommand(of host: ChildProcess) async throws -> [String] {
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        let command = try #require(banner.components(separatedBy: "directly: ").last)
        return command.split(separator: " ").map(String.init)
    }

    @Test("The join command a host prints works as printed, whether or not guessnum is on PATH")
    func printedJoinCommandWorks() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "5"])
        defer { host.signal(SIGKILL) }
        let words = try await directCommand(of: host)
        #expect(words.count == 3 && words[1] == "join", "\(words)")
        #expect(words[0] == (try guessnumExecutable().resolvingSymlinksInPath().path), "not on PATH: the program's own path, \(words)")
        #expect(host.text.contains("cannot find it in the list while discovery is unavailable"), "the host says how players can still join: \(host.text)")
        let player = try ChildProcess(URL(fileURLWithPath: words[0]), Array(words.dropFirst()) + ["--name", "bob"], environment: Self.person())
        defer { player.signal(SIGKILL) }
        #expect(await player.line(containing: "Welcome, bob!") != nil, "the printed command joined: \(player.text)")

        let directory = try guessnumExecutable().deletingLastPathComponent().path
        var onPath = Self.person()
        onPath["PATH"] = directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        let listed = try guessnum(["host", "--name", "carol"], environment: onPath)
        defer { listed.signal(SIGKILL) }
        #expect(try await directCommand(of: listed).first == "guessnum", "on PATH: the plain name, \(listed.text)")
    }

    @Test("--range takes a negative range as the help shows it")
    func negativeRange() async throws {
        let host = try guessnum(["host", "--name", "alice", "--range", "-50-50"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "numbers -50–50") != nil, "host: \(host.text)")
    }

    @Test("A game's name where an address goes is answered with how to join the game of that name")
    func nameForAddress() async throws {
        let player = try guessnum(["join", "alice"])
        #expect(await player.exitStatus(within: .seconds(30)) == 64)
        #expect(player.text.contains("is not an address"), "\(player.text)")
        #expect(player.text.contains("join --game alice"), "\(player.text)")
    }

    @Test("Without USER and LOGNAME the name is the account's login name from the system")
    func loginNameFromTheSystem() async throws {
        let host = try guessnum(["host", "--secret", "5"], unsetting: ["USER", "LOGNAME"])
        defer { host.signal(SIGKILL) }
        let login = try #require(getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) })
        #expect(await host.line(containing: "Hosting \(login)'s game") != nil, "host: \(host.text)")
        #expect(!host.text.contains("could not be found"))
    }

    @Test("scripts/run starts the built program at once when nothing changed since a build, and builds first when a source did")
    func runDoesNotRebuild() async throws {
        // A copy of scripts/run in a project of its own, whose "program" prints its arguments: the
        // test reads the decision without touching this checkout's build. (GUESSNUM_RUN_NO_BUILD:
        // were it to build, it says so and stops.)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let project = Scratch.path("guessnum-run-project")
        defer { try? FileManager.default.removeItem(at: project) }
        let files = FileManager.default
        for folder in ["scripts", "Sources/guessnum", "Resources", ".build/debug"] {
            try files.createDirectory(at: project.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try files.copyItem(at: root.appendingPathComponent("scripts/run"), to: project.appendingPathComponent("scripts/run"))
        let source = project.appendingPathComponent("Sources/guessnum/main.swift")
        try Data("print(1)\n".utf8).write(to: source)
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: project.appendingPathComponent("Package.swift"))
        let program = project.appendingPathComponent(".build/debug/guessnum")
        try Data("#!/bin/sh\necho \"ran $*\"\n".utf8).write(to: program)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let stamp = project.appendingPathComponent(".build/guessnum-built.stamp")
        func age(_ url: URL, secondsAgo: Double) throws {
            try files.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: url.path)
        }
        func run() async throws -> (status: Int32?, text: String) {
            let run = try ChildProcess(project.appendingPathComponent("scripts/run"), ["--version"], environment: ["GUESSNUM_RUN_NO_BUILD": "1"])
            return (await run.exitStatus(within: .seconds(30)), run.text)
        }

        // Linked after the last change (by swift build, swift test or scripts/test): it runs.
        for path in ["Package.swift", "Sources", "Sources/guessnum", "Sources/guessnum/main.swift", "Resources"] {
            try age(project.appendingPathComponent(path), secondsAgo: 60)
        }
        try age(program, secondsAgo: 30)
        var outcome = try await run()
        #expect(outcome.status == 0 && outcome.text == "ran --version\n", "\(outcome)")
        // A source changed since: it would build first.
        try age(source, secondsAgo: 10)
        outcome = try await run()
        #expect(outcome.status == 3 && outcome.text.contains("would be built first"), "\(outcome)")
        // …unless a build since then had nothing to link (its stamp is newer than the change).
        try Data().write(to: stamp)
        try age(stamp, secondsAgo: 5)
        outcome = try await run()
        #expect(outcome.status == 0 && outcome.text == "ran --version\n", "\(outcome)")
        // No program at all: it would build.
        try files.removeItem(at: program)
        outcome = try await run()
        #expect(outcome.status == 3, "\(outcome)")
    }
}
