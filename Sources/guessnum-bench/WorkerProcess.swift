import Foundation

/// One child process of the benchmark (`guessnum-bench worker` or `raw-echo`), seen from the coordinator.
final class WorkerProcess {
    private let process = Process()
    private let input = Pipe()
    private var lines: AsyncStream<String>.AsyncIterator

    /// The child's process ID.
    var pid: Int32 { process.processIdentifier }

    /// Starts this same executable as `subcommand` (a guest worker unless told) with `arguments`,
    /// at scheduling priority `niceness` (through nice(1), so every thread of it has it) when given.
    init(subcommand: String = "worker", arguments: [String], niceness: Int? = nil) throws {
        let output = Pipe()
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        if let niceness {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            process.arguments = ["-n", "\(niceness)", executable, subcommand] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [subcommand] + arguments
        }
        process.standardInput = input
        process.standardOutput = output
        lines = LineChannel.lines(from: output.fileHandleForReading.fileDescriptor).makeAsyncIterator()
        try process.run()
    }

    /// The worker's next JSON line, or nil when its output ended.
    func nextLine() async -> String? {
        while let line = await lines.next() {
            if line.hasPrefix("{") { return line }
        }
        return nil
    }

    /// Sends a command line (`go`, `quit`).
    func send(_ command: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Tells the worker to quit and waits (at most `timeout`) for it to exit.
    func quit(timeout: Duration = .seconds(10)) async {
        send("quit")
        try? input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
    }
}
