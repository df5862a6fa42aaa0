import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real program started by a test: its output is collected line by line, its input can be
/// written, and it is killed when the test lets go of it, so no test leaves processes behind.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let collected = Locked("")
    /// Whether the output reached its end (every byte the process wrote has been collected).
    private let outputEnded = Locked(false)
    /// Whether the output is left unread for now (see ``pauseReading()``).
    private let paused = Locked(false)

    /// Starts `executable` with `arguments`; standard error is merged into the output.
    /// Starts `executable` with this process's environment, `environment` added over it and
    /// the variables in `unsetting` removed.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], unsetting: Set<String> = []) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter { !unsetting.contains($0.key) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        // A plain thread reads the output until end of file and owns the handle until then: a
        // dispatch-source reader (readabilityHandler) can crash libdispatch when the pipe closes
        // while the source still watches it.
        let collected = self.collected
        let outputEnded = self.outputEnded
        let paused = self.paused
        let reader = output.fileHandleForReading
        let thread = Thread {
            // A read may end inside a character's UTF-8 bytes: those wait for the next read, so a
            // character split between two reads is not decoded as two broken ones.
            var pending: [UInt8] = []
            while true {
                while paused.value { Thread.sleep(forTimeInterval: 0.01) }
                let data = reader.availableData
                if data.isEmpty { break }
                pending += data
                let complete = Self.completeUTF8Length(pending)
                let text = String(decoding: pending[..<complete], as: UTF8.self)
                pending.removeFirst(complete)
                collected.withLock { $0 += text }
            }
            if !pending.isEmpty { collected.withLock { $0 += String(decoding: pending, as: UTF8.self) } }
            outputEnded.withLock { $0 = true }
        }
        thread.name = "ChildProcess output"
        try process.run()
        thread.start()
        // This side's copy of the write end must close, or the reader never sees end of file.
        try? output.fileHandleForWriting.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// How many of `bytes` end on a whole character: all of them, unless they end inside a
    /// character's UTF-8 sequence, whose bytes so far are left out.
    static func completeUTF8Length(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        while index >= 0, bytes.count - index <= 4 {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 {  // not a continuation byte: ASCII or the lead of a sequence
                let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                return bytes.count - index < length ? index : bytes.count
            }
            index -= 1
        }
        return bytes.count
    }

    /// The process ID.
    public var pid: Int32 { process.processIdentifier }

    /// Everything the process has printed so far.
    public var text: String { collected.withLock { $0 } }

    /// The first printed line containing `fragment`, waiting up to `timeout` for it.
    public func line(containing fragment: String, within timeout: Duration = .seconds(30)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = text.split(separator: "\n").first(where: { $0.contains(fragment) }) { return String(line) }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Whether `fragment` has been printed at least `count` times, waiting up to `timeout` for it:
    /// for what a process prints again (a second "your turn").
    public func printed(_ fragment: String, times count: Int, within timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if text.components(separatedBy: fragment).count - 1 >= count { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The first whole line (one its newline has ended) containing `fragment`, waiting up to
    /// `timeout` for it. ``line(containing:within:)`` also matches the line being written, which
    /// suits prompts that end without a newline but may return a long line cut short.
    public func completeLine(containing fragment: String, within timeout: Duration = .seconds(30)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = text
            let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
            if let line = complete.split(separator: "\n").first(where: { $0.contains(fragment) }) { return String(line) }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops reading the process's output, as a terminal nobody drains: once the pipe is full
    /// (64 KiB on Linux), the process's writes block. At most one more chunk is read.
    public func pauseReading() {
        paused.withLock { $0 = true }
    }

    /// Reads the process's output again after ``pauseReading()``.
    public func resumeReading() {
        paused.withLock { $0 = false }
    }

    /// The bytes written to the output pipe and not read yet.
    public var unreadOutputBytes: Int {
        var count: Int32 = 0
        guard ioctl(output.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Writes `line` and a newline to the process's standard input; nothing when the process
    /// has ended (its test fails on what it then does not print, instead of the whole test
    /// run dying of SIGPIPE).
    public func send(line: String) {
        Self.ignoreBrokenPipes
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Writing to a process that has ended then fails with EPIPE instead of killing the test run.
    private static let ignoreBrokenPipes: Void = {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }()

    /// Closes the process's standard input.
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Sends `signal` (SIGKILL, SIGSTOP, SIGTERM…).
    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits up to `timeout` for the process to exit; returns its exit status, or nil if it
    /// is still running.
    public func exitStatus(within timeout: Duration = .seconds(30)) async -> Int32? {
        guard await eventually(within: timeout, { !process.isRunning || reapIfExited() != nil }) else { return nil }
        // The exit can be noticed before the last output is read: wait (briefly) for its end.
        _ = await eventually(within: .seconds(30)) { outputEnded.value }
        return reaped.value ?? process.terminationStatus
    }

    /// The exit status reaped here, when Foundation had not noticed the exit (seen on Linux with
    /// children that leave daemons behind).
    private let reaped = Locked<Int32?>(nil)

    private func reapIfExited() -> Int32? {
        if let status = reaped.value { return status }
        var status: Int32 = 0
        guard waitpid(process.processIdentifier, &status, WNOHANG) == process.processIdentifier else { return nil }
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        reaped.withLock { $0 = code }
        return code
    }
}

/// The `guessnum` executable built beside the test bundle.
public func guessnumExecutable() throws -> URL {
    try builtExecutable(named: "guessnum")
}

/// An executable of this package, built beside the test bundle.
public func builtExecutable(named name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "The \(name) executable was not built next to the tests; run `swift build` before `swift test --skip-build`." }
    }
    throw Missing(name: name)
}

/// A simulated person's environment: a fresh home directory with its own XDG configuration,
/// data, state and cache directories inside (identity, known hosts, history), and no colour.
/// Each person in a test gets their own; one person running several programs shares one.
public func personEnvironment() -> [String: String] {
    let home = Scratch.path("guessnum-person")
    return [
        "HOME": home.path,
        "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
        "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
        "NO_COLOR": "1",
    ]
}
