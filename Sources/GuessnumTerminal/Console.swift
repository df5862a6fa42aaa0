import Foundation

/// Where the program reads lines and writes messages.
///
/// Two implementations: ``ReadlineConsole`` when a person sits at a terminal, and
/// ``PlainConsole`` when standard input is a pipe or a file. ``Consoles/make(prompt:history:completions:)``
/// picks one.
public protocol Console: Sendable {
    /// Lines the user enters, in order, without their newline (empty lines included); the
    /// stream finishes at end of input (Ctrl-D on an empty line, end of file) or on ``close()``.
    ///
    /// The stream has a single consumer: iterate it from one task.
    var lines: AsyncStream<String> { get }

    /// Prints one message, followed by a newline, without disturbing what the user is typing.
    ///
    /// The message may contain several lines or none. Callable from any thread; messages
    /// appear in the order of the calls. Text that comes from other people should be passed
    /// through ``TerminalText/sanitized(_:)`` first.
    func print(_ text: String)

    /// Changes the prompt (for example "guess> "). It may contain ANSI colour sequences.
    func setPrompt(_ prompt: String)

    /// Restores the terminal and finishes ``lines``. Idempotent, callable from any thread;
    /// must be called before the program exits. ``print(_:)`` still works afterwards.
    func close()
}

/// Chooses the console that suits standard input and output.
public enum Consoles {
    /// A ``ReadlineConsole`` when standard input and standard output are both terminals,
    /// otherwise a ``PlainConsole`` (which shows no prompt and ignores `history` and `completions`).
    public static func make(prompt: String, history: HistoryStore?, completions: [String]) -> any Console {
        if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
            return ReadlineConsole(prompt: prompt, history: history, completions: completions)
        }
        return PlainConsole()
    }
}
