import Foundation
import Synchronization

/// A console for standard input that is not a terminal (a pipe, a file): no readline, no
/// prompt, no history.
///
/// One thread reads standard input with `readLine()`. ``print(_:)`` never waits for standard
/// output: each message is queued for ``OutputPump/shared``, whose thread writes it whole, with
/// a newline, and flushes it; when the reader of standard output falls behind, lines are
/// skipped and counted ("… 240 lines skipped") instead of stalling the program: beyond 1,000
/// lines or 256 KiB waiting (besides the 64 KiB a pipe holds).
public final class PlainConsole: Console {
    private let gate: InputGate
    private let pump: OutputPump
    /// Set by ``close()``: later messages are written before ``print(_:)`` returns (briefly
    /// waited for), as the program is about to exit.
    private let closed = Atomic(false)

    /// Starts reading standard input at once, delivering each line to `input`.
    public convenience init(input: @escaping ConsoleInputHandler) {
        self.init(pump: .shared, input: input)
    }

    /// A console that prints through `pump`.
    init(pump: OutputPump, input: @escaping ConsoleInputHandler) {
        self.pump = pump
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
        pump.write(text)
        if closed.load(ordering: .relaxed) { pump.drain(timeout: Self.drainTimeout) }
    }

    public func printDiagnostic(_ text: String) {
        pump.write(text, to: .error)
        if closed.load(ordering: .relaxed) { pump.drain(timeout: Self.drainTimeout) }
    }

    /// How long ``close()`` waits for queued messages to be written.
    static let drainTimeout: Duration = .seconds(2)

    /// Does nothing: a plain console shows no prompt.
    public func setPrompt(_ prompt: String) {}

    /// Does nothing: a plain console shows no prompt and echoes nothing.
    public func hideNextLine(prompt: String) {}

    /// Does nothing: the end of a pipe or file is final.
    public func resumeInput() {}

    /// Stops delivering input and waits (up to two seconds) for the queued messages to be
    /// written. The reading thread stays blocked until standard input ends or the process
    /// exits; nothing it reads afterwards is delivered.
    public func close() {
        gate.end()
        closed.store(true, ordering: .relaxed)
        pump.drain(timeout: Self.drainTimeout)
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
