import ArgumentParser
import Foundation
import GuessnumApp

/// `guessnum`: the command-line entry point.
@main
struct Guessnum: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guessnum",
        abstract: "Play guess-the-number with everyone on your LAN.",
        discussion: """
            One player hosts (`guessnum host`); everyone else joins (`guessnum join`) and \
            guesses the secret number. Games are found on the LAN through Avahi (mDNS); \
            `guessnum join HOST:PORT` works without it.
            """,
        version: "0.1.0-dev",
        subcommands: [HostCommand.self, JoinCommand.self, SendCommand.self, ReceiveCommand.self, DoctorCommand.self]
    )

    /// Runs the command line, first naming the command meant by a mistyped one (`guessnum hots`).
    static func main() async {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if let typed = CommandLine.arguments.dropFirst().first, let meant = CommandSuggestion.closest(to: typed, among: names) {
            exit(withError: ValidationError("Unknown command '\(typed)'. Did you mean '\(meant)'?"))
        }
        await main(nil)
    }
}
