/// Everything a REPL reacts to, as one stream of events (see ``Inbox``): what the person
/// types, the end of input, signals, the list of games changing, the host leaving, timers.
public enum AppEvent: Sendable, Equatable {
    /// A line the person entered (without its newline).
    case typed(String)
    /// Standard input ended: Ctrl-D at a terminal, the end of a pipe or file.
    case inputEnded
    /// SIGTERM, or SIGINT when standard input is not a terminal: end gracefully.
    case signal
    /// Ctrl-C at a terminal; `clearedText` when it abandoned a half-typed line.
    case interrupted(clearedText: Bool)
    /// The list of games nearby changed.
    case gamesChanged
    /// The host of the game being played left or was lost; the sentence says how.
    case hostLeft(String)
    /// A timer set with ``Inbox/wake(after:)`` fired.
    case timer
}
