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
    /// The link to the host of the game being played dropped (no goodbye), and the host keeps
    /// the seat for a while: the player tries to get back in.
    /// The sentence is what the player reads if the seat cannot be rejoined after all.
    case linkLost(String)
    /// How a try to get back into the game after ``linkLost`` ended.
    case rejoin(RejoinResult)
    /// A timer set with ``Inbox/wake(after:)`` fired.
    case timer
}

/// How trying to get back into a game whose link dropped ended.
public enum RejoinResult: Sendable, Equatable {
    /// Back in the game, in the same seat if the host still held it.
    case back
    /// The host answered but did not let the player back in, with its reason if it gave one
    /// (a seat no longer held in a full game, say).
    case declined(reason: String?)
    /// The answer was refused on this side; the sentence says why (another key at the host's
    /// address, say).
    case refused(String)
    /// The host could not be reached before the seat's grace period was over.
    case gaveUp
}
