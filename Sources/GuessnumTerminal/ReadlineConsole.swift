import Foundation

/// A console on a terminal, with GNU readline: line editing, history (Up arrow), Tab
/// completion of slash commands, and messages printed above the line being typed.
///
/// Readline is owned by one dedicated thread, which runs readline's callback interface in a
/// `poll()` loop over standard input, a wake-up pipe and a signal pipe. Every other thread
/// only queues work for it, and never waits: messages beyond what the terminal has caught up
/// with (1,000 lines or 256 KiB) are skipped and counted ("… 240 lines skipped"). Ctrl-C clears the line being typed (the program is not
/// interrupted); Ctrl-D on an empty line ends the input.
///
/// Readline is a process-wide library: at most one `ReadlineConsole` may be open at a time
/// (opening a second one before closing the first is a programming error and traps).
/// While it is open, the console handles SIGINT and SIGWINCH; ``close()`` puts the previous
/// handlers back.
public final class ReadlineConsole: Console {
    private let session: ReadlineSession

    /// How long ``close()`` waits for the readline thread.
    static let closeTimeout: DispatchTimeInterval = .seconds(2)
    /// How long a message printed after ``close()`` is waited for (the program is exiting).
    static let drainTimeout: Duration = .seconds(2)

    /// Takes over the terminal and shows `prompt`.
    /// - Parameters:
    ///   - history: where the history is loaded from now and saved to on ``close()``; nil for none.
    ///   - completions: the words Tab completes when the first word starts with "/" (for
    ///     example `["/help", "/quit"]`).
    ///   - keepsInHistory: whether an entered line goes into the history.
    ///   - input: called on the readline thread with each line entered, each Ctrl-C and at end
    ///     of input.
    public init(
        prompt: String, history: HistoryStore?, completions: [String],
        keepsInHistory: @escaping @Sendable (String) -> Bool = { _ in true }, input: @escaping ConsoleInputHandler
    ) {
        session = ReadlineSession(
            prompt: ReadlinePrompt.marked(prompt),
            history: history,
            completions: completions,
            keepsInHistory: keepsInHistory,
            input: input
        )
        session.start()
    }

    deinit {
        close()
    }

    public var isInteractive: Bool { true }

    public func print(_ text: String) {
        if !session.send(.print(text)) {
            OutputPump.shared.write(text)
            OutputPump.shared.drain(timeout: Self.drainTimeout)
        }
    }

    public func printDiagnostic(_ text: String) {
        if !session.send(.printDiagnostic(text)) {
            OutputPump.shared.write(text, to: .error)
            OutputPump.shared.drain(timeout: Self.drainTimeout)
        }
    }

    public func setPrompt(_ prompt: String) {
        _ = session.send(.setPrompt(ReadlinePrompt.marked(prompt)))
    }

    public func hideNextLine(prompt: String) {
        _ = session.send(.hideNextLine(prompt: ReadlinePrompt.marked(prompt)))
    }

    public func discardTypedLine() {
        _ = session.send(.discardTypedLine)
    }

    public func resumeInput() {
        _ = session.send(.resumeInput)
    }

    public func complete(also words: [String]) {
        ReadlineSession.complete(also: words)
    }

    /// Removes readline's handler, restores the terminal and the signal handlers, saves the
    /// history and ends the input. Waits up to two seconds for the readline thread.
    public func close() {
        session.close(timeout: Self.closeTimeout)
    }
}
