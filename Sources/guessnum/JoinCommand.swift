import ArgumentParser
import Foundation
import GuessnumTerminal
import Multipeer
import MultipeerNIO

/// `guessnum join`: find a game nearby (or go straight to an address) and play.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a game: pick one from the games nearby, or give its address."
    )

    @Option(help: "Your name as other players see it (default: your login name).")
    var name: String?

    @Option(help: "Join the game of this name as soon as it is found (for scripts).")
    var game: String?

    @Argument(help: "Join the game at this address (as `guessnum host` prints it) without looking for games.")
    var address: String?

    @Option(help: "Seconds to wait for a host to answer, or for --game to be found.")
    var timeout: Int = 30

    @Flag(name: .customLong("no-color"), help: "Print without colour.")
    var noColor = false

    @Flag(help: "Print every event as one JSON object a line (implies plain lines, no colour).")
    var json = false

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second.") }
    }

    func run() async throws {
        try await CommandRunner.run {
            let endpoint = try address.map { text throws(MultipeerError) in try Endpoint(parsing: text) }
            let session = Session(localPeer: try PeerIdentity.local(name: name, role: .guest), transport: TCPTransport())
            let console: any Console = json
                ? JSONConsole(wrapping: PlainConsole())
                : Consoles.make(
                    prompt: endpoint == nil ? "join> " : "guess> ", history: HistoryStore.standard(application: "guessnum"),
                    completions: SlashCommand.names(for: .guest))
            Signals.install(for: console)
            defer { console.close() }
            let guest = GuestREPL(session: session, console: console, style: json ? TextStyle.plain : TextStyle.detect(noColorFlag: noColor), json: json, timeout: .seconds(timeout))
            let status = await guest.run(direct: endpoint, gameName: game)
            await session.disconnect()
            if let failure = status { throw failure }
        }
    }
}
