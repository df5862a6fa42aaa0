import Foundation

/// What a console hears from the person at it, in order.
public enum ConsoleInput: Sendable, Equatable {
    /// A line entered, without its newline (empty lines included).
    case line(String)
    /// End of input: Ctrl-D on an empty line, the end of a file or pipe. Nothing follows it
    /// unless the program calls ``Console/resumeInput()``.
    case ended
    /// Ctrl-C at a terminal: the line being typed was abandoned (`clearedText` when it held
    /// something), and the program goes on.
    case interrupted(clearedText: Bool)
}

/// Where a console delivers ``ConsoleInput``: called on the console's own thread, one call at
/// a time, never after ``Console/close()`` returns. It must be quick (post the input to a
/// queue or stream).
public typealias ConsoleInputHandler = @Sendable (ConsoleInput) -> Void

/// Where the program reads lines and writes messages.
///
/// Two implementations: ``ReadlineConsole`` when a person sits at a terminal, and
/// ``PlainConsole`` when standard input is a pipe or a file.
/// ``Consoles/make(prompt:history:completions:input:)`` picks one. Input is delivered to the
/// handler given when the console is made, so a program can merge it with its other events
/// into one stream.
public protocol Console: Sendable {
    /// Whether a person is at a terminal (line editing, a prompt, Ctrl-C and Ctrl-D keys), as
    /// opposed to a script feeding standard input.
    var isInteractive: Bool { get }

    /// Prints one message to standard output, followed by a newline, without disturbing what
    /// the user is typing.
    ///
    /// The message may contain several lines or none. Callable from any thread; messages
    /// appear in the order of the calls. Text that comes from other people should be passed
    /// through `TerminalText.sanitized(_:)` (module SafeText) first.
    func print(_ text: String)

    /// Shows one thing a screen shows: its text (as ``print(_:)``) at a terminal or in a plain
    /// pipe; a console that writes for programs writes its event instead. Implemented by
    /// default as `print(line.text)`.
    func show(_ line: ScreenLine)

    /// Prints one diagnostic line to standard error, above the line being typed, like
    /// ``print(_:)``.
    func printDiagnostic(_ text: String)

    /// Changes the prompt (for example "guess> "). It may contain ANSI colour sequences.
    func setPrompt(_ prompt: String)

    /// Shows `prompt` and hides the next line the person types (for a password): its
    /// characters are not shown and it is not kept in the history. The prompt from before
    /// comes back once it is entered, or abandoned with Ctrl-C. Does nothing where nothing is
    /// shown (a script's input).
    func hideNextLine(prompt: String)

    /// Drops the line being typed, unsent, when what it was typed for is gone (a game is over
    /// and the list of games is shown instead): it would otherwise be entered at the new prompt
    /// as an answer to something else. Does nothing where nothing is being typed (a script's
    /// input), which is what the default implementation does.
    func discardTypedLine()

    /// Reads input again after ``ConsoleInput/ended`` at a terminal (after Ctrl-D, when the
    /// program asks a question instead of ending). Does nothing where input cannot resume.
    func resumeInput()

    /// Restores the terminal and stops delivering input (an ``ConsoleInput/ended`` is
    /// delivered if it was not yet). Idempotent, callable from any thread; must be called
    /// before the program exits. ``print(_:)`` still works afterwards.
    func close()

    /// Adds `words` (slash commands, "/board") to what Tab completes from now on: a game's own
    /// commands, once the game is known. Nothing on a console that does not complete.
    func complete(also words: [String])
}

extension Console {
    public func discardTypedLine() {}
    public func complete(also words: [String]) {}
}

/// Chooses the console that suits standard input and output.
public enum Consoles {
    /// A ``ReadlineConsole`` when standard input and standard output are both terminals,
    /// otherwise a ``PlainConsole`` (which shows no prompt and ignores `history` and `completions`).
    ///
    /// - Parameter keepsInHistory: whether an entered line is kept in the history (for example
    ///   not a command that ends something, which Up and Enter would otherwise repeat).
    public static func make(
        prompt: String, history: HistoryStore?, completions: [String],
        keepsInHistory: @escaping @Sendable (String) -> Bool = { _ in true }, input: @escaping ConsoleInputHandler
    ) -> any Console {
        if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
            return ReadlineConsole(prompt: prompt, history: history, completions: completions, keepsInHistory: keepsInHistory, input: input)
        }
        return PlainConsole(input: input)
    }
}

extension ConsoleInput {
    /// A stream of input and the handler that feeds it, for a program whose only events are
    /// what is typed.
    public static func makeStream() -> (stream: AsyncStream<ConsoleInput>, handler: ConsoleInputHandler) {
        let (stream, continuation) = AsyncStream.makeStream(of: ConsoleInput.self, bufferingPolicy: .unbounded)
        return (stream, { input in
            continuation.yield(input)
            if input == .ended { continuation.finish() }
        })
    }
}
