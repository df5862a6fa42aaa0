import Foundation
import GuessnumTerminal
import Logging
import Synchronization

/// Where the program's log lines go: standard error, through the console once there is one,
/// so that a log line never lands on the line being typed.
public final class LogDestination: Sendable {
    private let console = Mutex<(any Console)?>(nil)

    /// A destination that writes to standard error until a console is attached.
    public init() {}

    /// Sends log lines through `console` from now on (nil: straight to standard error).
    public func attach(_ console: (any Console)?) {
        self.console.withLock { $0 = console }
    }

    func write(_ line: String) {
        if let console = console.withLock({ $0 }) {
            console.printDiagnostic(line)
        } else {
            StandardStreams.writeErrorLine(line)
        }
    }
}

/// A swift-log handler for the terminal: one line a message, `guessnum: LEVEL: message
/// key=value …` (metadata sorted by key), at or above the level chosen with `--log-level`.
public struct ConsoleLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let destination: LogDestination

    /// A handler for the logger `label` that writes to `destination` at `level` and above.
    public init(label: String, level: Logger.Level, destination: LogDestination) {
        self.label = label
        self.logLevel = level
        self.destination = destination
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        destination.write(Self.format(label: label, level: event.level, message: event.message, metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// The line for one message.
    static func format(label: String, level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> String {
        let details = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (["guessnum: \(level): \(message)"] + details + ["(\(label))"]).joined(separator: " ")
    }
}
