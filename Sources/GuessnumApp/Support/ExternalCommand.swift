import Dispatch
import Foundation
import Multipeer
import MultipeerPOSIX

/// Runs another program (`nft`, `iptables-save`) and collects what it prints, never for longer
/// than a time limit: a program still running then is killed.
public enum ExternalCommand {
    /// How a run ended.
    public struct Outcome: Sendable, Equatable {
        /// The exit status; nil when the program could not be started or was killed at the time limit.
        public var status: Int32?
        /// Its standard output.
        public var output: String
        /// Its standard error, or why it could not be started.
        public var error: String
        /// Whether it was killed at the time limit.
        public var timedOut: Bool

        public init(status: Int32?, output: String, error: String, timedOut: Bool = false) {
            self.status = status
            self.output = output
            self.error = error
            self.timedOut = timedOut
        }
    }

    /// Runs `executable` with `arguments`, its standard input empty, for at most `timeout`.
    public static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(5)) async -> Outcome {
        // Blocking reads and waits stay off the cooperative pool.
        await onOwnThread { runBlocking(executable, arguments, timeout: timeout) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Outcome(status: nil, output: "", error: "\(executable) could not be started: \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        let timedOut = Protected(false)
        let killer = DispatchWorkItem {
            timedOut.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        // Both pipes are drained at once, so a program that fills one is never stuck writing it.
        let errorText = Protected(Data())
        let errorRead = DispatchGroup()
        errorRead.enter()
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
            errorRead.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        killer.cancel()
        let killed = timedOut.withLock { $0 }
        return Outcome(
            status: killed ? nil : process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorText.withLock { $0 }, as: UTF8.self), timedOut: killed)
    }
}
