import Foundation
import Synchronization

/// A console for standard input that is not a terminal (a pipe, a file): no readline, no
/// prompt, no history.
///
/// One thread reads standard input with `readLine()`; ``print(_:)`` writes each message and a
/// newline to standard output under a lock and flushes it, so messages never interleave.
public final class PlainConsole: Console {
    private let gate: InputGate

    /// Starts reading standard input at once, delivering each line to `input`.
    public init(input: @escaping ConsoleInputHandler) {
        let gate = InputGate(input)
        self.gate = gate
        let reader = Thread {
            while let line = readLine(strippingNewline: true) {
                if !gate.deliver(.line(line)) { return }
            }
            gate.end()
        }
        reader.name = "PlainConsole reader"
        reader.start()
    }

    public var isInteractive: Bool { false }

    public func print(_ text: String) {
        StandardStreams.writeLine(text)
    }

    public func printDiagnostic(_ text: String) {
        StandardStreams.writeErrorLine(text)
    }

    /// Does nothing: a plain console shows no prompt.
    public func setPrompt(_ prompt: String) {}

    /// Does nothing: the end of a pipe or file is final.
    public func resumeInput() {}

    /// Stops delivering input. The reading thread stays blocked until standard input ends or
    /// the process exits; nothing it reads afterwards is delivered.
    public func close() {
        gate.end()
    }
}

/// Delivers input until it has delivered ``ConsoleInput/ended``, then nothing more.
private final class InputGate: Sendable {
    private let input: ConsoleInputHandler
    private let open = Mutex(true)

    init(_ input: @escaping ConsoleInputHandler) {
        self.input = input
    }

    /// Delivers `item` unless the input has ended; returns whether it is still open.
    func deliver(_ item: ConsoleInput) -> Bool {
        open.withLock { open in
            if open { input(item) }
            return open
        }
    }

    /// Delivers ``ConsoleInput/ended`` once.
    func end() {
        open.withLock { open in
            if open { input(.ended) }
            open = false
        }
    }
}
