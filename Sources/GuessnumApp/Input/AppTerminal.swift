import GuessnumTerminal
import Logging

/// The terminal side of a run: the one ``Inbox`` its REPL reads, and the console that feeds
/// it, with signals and log lines wired in.
public struct AppTerminal: Sendable {
    /// Where every event of the run arrives.
    public let inbox: Inbox
    /// Where the REPL prints and the person types.
    public let console: any Console

    /// Opens the console for `role` (readline at a terminal, plain lines otherwise, JSON lines
    /// with `json`), delivering what is typed and the signals to a new inbox, and sends log
    /// lines through the console from now on.
    public static func open(for role: CommandRole, json: Bool, logs: LogDestination) -> AppTerminal {
        let inbox = Inbox()
        let prompt = switch role {
        case .host: "> "
        case .player: "guess> "
        case .lobby: "join> "
        }
        let console: any Console = json
            ? JSONConsole(wrapping: PlainConsole(input: inbox.consoleInput))
            : Consoles.make(
                prompt: prompt, history: HistoryStore.standard(application: "guessnum"),
                completions: CommandTable.completions(for: role == .host ? .host : .player),
                keepsInHistory: CommandTable.keepsInHistory, input: inbox.consoleInput)
        Signals.install(interactive: console.isInteractive, inbox: inbox)
        logs.attach(console)
        return AppTerminal(inbox: inbox, console: console)
    }

    /// Closes the console; log lines go straight to standard error again.
    public func close(logs: LogDestination) {
        logs.attach(nil)
        console.close()
    }
}

extension LoggingSystem {
    /// Sends every logger's lines at `level` and above to `destination`. Call once, first.
    public static func bootstrapTerminal(level: Logger.Level, destination: LogDestination) {
        bootstrap { label in ConsoleLogHandler(label: label, level: level, destination: destination) }
    }
}
