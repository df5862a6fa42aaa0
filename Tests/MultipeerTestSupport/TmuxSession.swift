import Foundation
import Multipeer
import MultipeerPOSIX
import Synchronization
import Testing

/// A program running in its own tmux server (a unique socket), in a 120×30 window, so tests
/// can type into a real terminal and read the screen. ``kill()`` ends the server; so does
/// deinit, when a test fails before reaching it. Every tmux command runs on a thread of its own,
/// never on the cooperative pool the tests share.
public final class TmuxSession: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let socket = "gnterm-\(UUID().uuidString.prefix(8))"
    private let target = "main"
    private let socketPath = Mutex<String?>(nil)
    /// The process group of the pane (the shell and the program).
    private let paneGroup = Mutex<pid_t?>(nil)
    private let scratch = Mutex<[URL]>([])

    public init(_ command: [String]) async throws {
        // tmux 3.3 sometimes marks the pane dead before it has reaped the program, and never
        // learns its status: a shell around the program prints it instead. (The shell's INT
        // trap keeps Ctrl-C from ending the shell; the program gets default dispositions.)
        let wrapper = ["/bin/sh", "-c", "trap : INT; \"$@\"; echo \"[exited $?]\"", "sh"]
        try await tmux(["new-session", "-d", "-s", target, "-x", "120", "-y", "30", "--"] + wrapper + command)
        // Keep the pane (and its last screen) when the program exits.
        try await tmux(["set-option", "-t", target, "remain-on-exit", "on"])
        let path = try await tmux(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        socketPath.withLock { $0 = path }
        let pid = try await tmux(["display-message", "-p", "-t", target, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        paneGroup.withLock { $0 = pid_t(pid) }
    }

    deinit { kill() }

    /// Removes `url` (a file or a directory) when the session is killed.
    public func removeOnKill(_ url: URL) {
        scratch.withLock { $0.append(url) }
    }

    /// Ends the server and the program, and removes the server's socket (tmux 3.3 leaves it)
    /// and the scratch files, on a thread of its own: it returns at once, so that a `defer` can
    /// call it. Idempotent.
    public func kill() {
        let socket = self.socket
        let group = paneGroup.withLock { group in defer { group = nil }; return group }
        let path = socketPath.withLock { path in defer { path = nil }; return path }
        let urls = scratch.withLock { urls in defer { urls = [] }; return urls }
        Thread {
            _ = try? Self.runTmux(socket: socket, ["kill-server"])
            // Wait (briefly) for the program to go: on hang-up it may still save its history.
            if let group {
                let deadline = ContinuousClock.now + .seconds(3)
                while Self.isAlive(group: group) && ContinuousClock.now < deadline {
                    usleep(10_000)
                }
            }
            if let path { unlink(path) }
            for url in urls { try? FileManager.default.removeItem(at: url) }
        }.start()
    }

    /// Whether a process of `group` runs (zombies, which this container's init reaps slowly, do not count).
    private static func isAlive(group: pid_t) -> Bool {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.contains { pid in
            guard Int32(pid) != nil, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return false }
            // After "pid (comm)": state, ppid, pgrp…
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    /// Types `keys` literally (no Enter).
    public func type(_ keys: String) async throws {
        try await tmux(["send-keys", "-t", target, "-l", "--", keys])
    }

    /// Presses named keys: "Enter", "Up", "Left", "Tab", "C-c", "C-d"…
    public func press(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", target] + keys)
    }

    /// The visible lines, trailing spaces and trailing empty lines removed; with
    /// `includingScrollback`, every line the pane has shown, those scrolled off the top first.
    public func screen(includingScrollback: Bool = false) async throws -> [String] {
        let history = includingScrollback ? ["-S", "-"] : []
        var lines = try await tmux(["capture-pane", "-p", "-t", target] + history).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The last non-empty line of the screen.
    public func lastLine() async throws -> String { try await screen().last ?? "" }

    /// The cursor's column and row.
    public func cursor() async throws -> (x: Int, y: Int) {
        let fields = try await tmux(["display-message", "-p", "-t", target, "#{cursor_x} #{cursor_y}"])
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 2 else { throw Failure(description: "unreadable cursor position") }
        return (fields[0], fields[1])
    }

    /// The program's exit status (128 + the signal that killed it), nil while it runs.
    public func exitStatus() async throws -> Int? {
        try await screen().lazy.compactMap { $0.wholeMatch(of: /\[exited (\d+)\]/).flatMap { Int($0.1) } }.last
    }

    /// Waits up to `timeout` for the program to exit; returns its status, or nil (and records
    /// an issue) if it is still running.
    public func waitForExit(within timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = try await exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(40))
        }
        Issue.record("The program did not exit. Screen:\n\(try await screen().joined(separator: "\n"))", sourceLocation: sourceLocation)
        return nil
    }

    /// Polls the screen until `condition` holds, for at most `timeout`; records an issue
    /// showing the screen when it never does.
    @discardableResult
    public func waitFor(
        _ what: String, within timeout: Duration = .seconds(30),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: ([String]) async -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = try await screen()
            if await condition(lines) { return true }
            try await Task.sleep(for: .milliseconds(40))
        }
        Issue.record("Timed out waiting for \(what). Screen:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        return false
    }

    /// Waits until the last line reads `line` exactly (trailing spaces ignored).
    @discardableResult
    public func waitForLastLine(_ line: String, within timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        try await waitFor("the last line to read \"\(line)\"", within: timeout, sourceLocation: sourceLocation) { $0.last == line }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let socket = self.socket
        return try await onOwnThread { try Self.runTmux(socket: socket, arguments) }
    }

    /// Runs tmux with `arguments` against the server of `socket` and waits for it (blocking).
    private static func runTmux(socket: String, _ arguments: [String]) throws -> String {
        // A file, not a pipe: the tmux server started by `new-session` inherits the client's
        // descriptors, so a pipe would never reach its end. And posix_spawn + waitpid, not
        // Foundation's Process, which can miss the exit of a child that leaves a daemon behind.
        let outputURL = Scratch.path(socket, suffix: ".out")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TERM"] = "xterm-256color"
        let status = try spawnAndWait(
            "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments,
            environment: environment.map { "\($0.key)=\($0.value)" }, outputPath: outputURL.path
        )
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }
}

/// Runs `path` with `arguments`, standard input from /dev/null and standard output and error
/// to `outputPath`; returns its exit status (128 + signal when killed).
private func spawnAndWait(_ path: String, _ arguments: [String], environment: [String], outputPath: String) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // Nothing else is inherited: the tmux server outlives the client and would otherwise hold
    // on to descriptors of the test process (the pipes of other tests' children, say).
    // (Descriptors opened by other threads meanwhile may slip through; closing one that was
    // closed meanwhile is harmless.)
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap({ Int32($0) }) where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }
    // Test threads block most signals, and a blocked mask is inherited: start with none
    // blocked and every signal at its default, so that the server's SIGHUP ends the program.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let error = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard error == 0 else {
        throw TmuxSession.Failure(description: "cannot start \(path): \(String(cString: strerror(error)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw TmuxSession.Failure(description: "waitpid failed: \(String(cString: strerror(errno)))") }
    }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}
