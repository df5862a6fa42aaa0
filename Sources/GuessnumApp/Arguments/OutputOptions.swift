import ArgumentParser
import GuessnumTerminal
import Logging

// A log level as a command-line argument (ArgumentParser reports one it cannot read as a usage
// error, exit 64).
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// How the program prints: colour, JSON lines, and how much it logs.
public struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("no-color"), help: "Print without colour.")
    var noColor = false

    @Flag(help: "Print every event as one JSON object a line (implies plain lines, no colour).")
    public var json = false

    // The default is written in the help (ArgumentParser's man page omits defaults).
    @Option(
        name: .customLong("log-level"),
        help: "Log diagnostics to standard error from this level on (default: warning).")
    var logLevelGiven: Logger.Level?
    public var logLevel: Logger.Level { logLevelGiven ?? .warning }

    /// How game events read.
    public var style: TextStyle { json ? .plain : TextStyle.detect(noColorFlag: noColor) }

    public init() {}
}

/// How much `guessnum send` and `guessnum receive` log (they print plain lines only).
public struct LogOptions: ParsableArguments {
    // The default is written in the help (ArgumentParser's man page omits defaults).
    @Option(
        name: .customLong("log-level"),
        help: "Log diagnostics to standard error from this level on (default: warning).")
    var logLevelGiven: Logger.Level?
    public var logLevel: Logger.Level { logLevelGiven ?? .warning }

    public init() {}
}
