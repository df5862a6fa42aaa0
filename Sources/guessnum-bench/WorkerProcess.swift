import Foundation

/// One child process of the benchmark (`guessnum-bench worker` or `raw-echo`), seen from the coordinator.
final class WorkerProcess {
    private let process = Process()
    private let input = Pipe()
    private var lines: AsyncStream<String>.AsyncIterator

    /// Starts this same executable as `subcommand` (a guest worker unless told) with `arguments`.
    init(subcommand: String = "worker", arguments: [String]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [subcommand] + arguments
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
