import Foundation
import Synchronization

/// Writes lines to standard output and standard error on a thread of its own, so that whoever
/// prints never waits for the terminal: a game keeps answering while its output is a pipe
/// nobody reads, a paused terminal or a slow SSH link.
///
/// Lines wait in an ``OutputBacklog``; when the writer falls behind by more than its bounds,
/// the lines in excess are dropped and replaced by one "… N lines skipped" line.
public final class OutputPump: Sendable {
    /// Where a line is written.
    public enum Stream: Sendable, Hashable {
        case output
        case error
    }

    /// One line and where it goes.
    public struct Line: Sendable {
        public let text: String
        public let stream: Stream
    }

    /// Where the pump's thread writes a line (by default ``StandardStreams``).
    public typealias Writer = @Sendable (String, Stream) -> Void

    private struct State {
        var backlog: OutputBacklog<Line>
        /// Whether the writer thread is writing (so the backlog being empty is not the end).
        var writing = false
    }

    /// The state the pump shares with its thread.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    private let shared: Shared
    private let wake = DispatchSemaphore(value: 0)
    private let drained = Condition()

    /// Starts the writer thread.
    /// - Parameters:
    ///   - maximumLines, maximumBytes: how far the writer may fall behind before lines are skipped.
    ///   - writer: where lines are written, on the pump's thread.
    public init(maximumLines: Int = 1_000, maximumBytes: Int = 256 << 10, writer: @escaping Writer = OutputPump.standardStreams) {
        let shared = Shared(State(backlog: OutputBacklog(maximumLines: maximumLines, maximumBytes: maximumBytes)))
        self.shared = shared
        let thread = Thread { [wake, drained] in
            while true {
                wake.wait()
                while let entry = shared.state.withLock({ state -> OutputBacklog<Line>.Entry? in
                    let entry = state.backlog.popFirst()
                    state.writing = entry != nil
                    return entry
                }) {
                    switch entry {
                    case .item(let line): writer(line.text, line.stream)
                    case .skipped(let count): writer(OutputBacklog<Line>.skippedLine(count), .output)
                    }
                }
                drained.signal()
            }
        }
        thread.name = "OutputPump"
        thread.start()
    }

    /// Queues `text` (one message, possibly of several lines) for `stream`; never waits.
    public func write(_ text: String, to stream: Stream = .output) {
        shared.state.withLock { state in
            _ = state.backlog.append(Line(text: text, stream: stream), bytes: text.utf8.count + 1)
        }
        wake.signal()
    }

    /// Waits up to `timeout` for everything queued to be written; returns whether it was.
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while shared.state.withLock({ !$0.backlog.isEmpty || $0.writing }) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            drained.wait(upTo: min(left, .milliseconds(50)))
        }
        return true
    }

    /// Writes to ``StandardStreams``.
    public static let standardStreams: Writer = { text, stream in
        switch stream {
        case .output: StandardStreams.writeLine(text)
        case .error: StandardStreams.writeErrorLine(text)
        }
    }

    /// The pump of the process's standard streams, which every console prints through.
    public static let shared = OutputPump()
}

/// A wake-up for ``OutputPump/drain(timeout:)``, which checks the backlog again after each.
private final class Condition: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func signal() { semaphore.signal() }

    func wait(upTo duration: Duration) {
        let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
        _ = semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }
}
