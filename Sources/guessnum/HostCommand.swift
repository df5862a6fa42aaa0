import ArgumentParser
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerAvahi
import MultipeerNIO

/// `guessnum host`: pick a secret, advertise the game on the LAN and answer every guess.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a game: pick a secret, announce it on the LAN and answer every guess."
    )

    @Option(help: "The numbers the secret is drawn from, such as 1-100 or -50-50.")
    var range: String = "1-100"

    @Option(help: "Your name as players see it (default: your login name).")
    var name: String?

    @Option(help: "Use this secret for the first round instead of a random one (for demos).")
    var secret: Int64?

    @Option(name: .customLong("max-players"), help: "How many players may join.")
    var maxPlayers: Int = 100

    @Option(help: "The TCP port to listen on (default: any free port).")
    var port: Int = 0

    @Flag(help: "Ask before letting each player in.")
    var ask = false

    @Flag(name: .customLong("no-color"), help: "Print without colour.")
    var noColor = false

    @Flag(help: "Print every event as one JSON object a line (implies plain lines, no colour).")
    var json = false

    func validate() throws {
        guard maxPlayers >= 1 else { throw ValidationError("--max-players must be at least 1.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
    }

    func run() async throws {
        try await CommandRunner.run {
            let guessRange = try GuessRange(parsing: range)
            var configuration = GameConfiguration(range: guessRange, secretSource: secret.map { .fixed($0) } ?? .secureRandom)
            configuration.maximumPlayers = maxPlayers
            let session = Session(localPeer: try PeerIdentity.local(name: name, role: .host), transport: TCPTransport())
            let master = try GameMaster(session: session, configuration: configuration)
            let console: any Console = json
                ? JSONConsole(wrapping: PlainConsole())
                : Consoles.make(
                    prompt: "> ", history: HistoryStore.standard(application: "guessnum"),
                    completions: SlashCommand.names(for: .host))
            Signals.install(for: console)
            let host = HostREPL(
                session: session, master: master, console: console, style: json ? TextStyle.plain : TextStyle.detect(noColorFlag: noColor), json: json,
                maxPlayers: maxPlayers, asks: ask)
            defer { console.close() }
            try await host.run(port: port)
        }
    }
}
