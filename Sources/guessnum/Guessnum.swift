import ArgumentParser
import Foundation

/// `guessnum`: the command-line entry point.
@main
struct Guessnum: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guessnum",
        abstract: "Play guess-the-number with everyone on your LAN.",
        discussion: """
            This early build connects peers directly by address and relays chat lines; \
            the game and discovery of games nearby come in the next releases.
            """,
        version: "0.1.0-dev",
        subcommands: [HostCommand.self, JoinCommand.self]
    )
}
