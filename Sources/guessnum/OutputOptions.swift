import ArgumentParser
import GuessnumApp
import GuessnumTerminal
import Logging

/// How the program prints: colour, JSON lines, and how much it logs.
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("no-color"), help: "Print without colour.")
    var noColor = false

    @Flag(help: "Print every event as one JSON object a line (implies plain lines, no colour).")
    var json = false

    // The default is written in the help (ArgumentParser's man page omits defaults).
    @Option(
        name: .customLong("log-level"),
        help: "Log diagnostics to standard error from this level on (default: warning).")
    var logLevelGiven: Logger.Level?
    var logLevel: Logger.Level { logLevelGiven ?? .warning }

    /// How game events read.
    var style: TextStyle { json ? .plain : TextStyle.detect(noColorFlag: noColor) }
}

/// How much `guessnum send` and `guessnum receive` log (they print plain lines only).
struct LogOptions: ParsableArguments {
    // The default is written in the help (ArgumentParser's man page omits defaults).
    @Option(
        name: .customLong("log-level"),
        help: "Log diagnostics to standard error from this level on (default: warning).")
    var logLevelGiven: Logger.Level?
    var logLevel: Logger.Level { logLevelGiven ?? .warning }
}
