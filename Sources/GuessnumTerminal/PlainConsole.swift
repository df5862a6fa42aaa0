import Foundation
import Synchronization

/// A console for standard input that is not a terminal (a pipe, a file): no readline, no
/// prompt, no history.
///
/// One thread reads standard input with `readLine()`; ``print(_:)`` writes each message and a
/// newline to standard output under a lock and flushes it, so messages never interleave.
public final class PlainConsole: Console {
    public let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    /// Starts reading standard input at once.
    public init() {
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let continuation = self.continuation
        let reader = Thread {
            while let line = readLine(strippingNewline: true) {
                if case .terminated = continuation.yield(line) { return }
            }
            continuation.finish()
        }
        reader.name = "PlainConsole reader"
        reader.start()
    }

    public func print(_ text: String) {
        StandardOutput.writeLine(text)
    }

    /// Does nothing: a plain console shows no prompt.
    public func setPrompt(_ prompt: String) {}

    /// Finishes ``lines``. The reading thread stays blocked until standard input ends or the
    /// process exits; nothing it reads afterwards is delivered.
    public func close() {
        continuation.finish()
    }
}
