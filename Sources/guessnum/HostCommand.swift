import ArgumentParser
import GuessnumApp
import GuessnumGame
import Logging
import Multipeer
import MultipeerNIO

/// `guessnum host`: hosts one of the games of ``GameCatalog`` and announces it on the LAN.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a game (guess-the-number unless --game names another), announce it on the LAN and run it for the players who join.",
        discussion: "Each game's own options:\n\n" + GameCatalog.optionsHelp
    )

    @Option(help: "The game to host: \(GameCatalog.games.map { "\($0.kind.id) (\($0.kind.title))" }.joined(separator: ", ")).")
    var game: GameChoice = .standard

    @Option(help: "Your name as players see it (default: your login name).")
    var name: String?

    @OptionGroup var room: HostArguments

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: OutputOptions

    // The chosen game's own options (its module declares them; the help lists them).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var gameOptions: [String] = []

    func validate() throws {
        if let name { try JoinCommand.check(name: name) }
        do { _ = try room.prepare(game.game, options: gameOptions, besides: Self.self) } catch { throw ValidationError(error.message) }
    }

    func run() async throws {
        let logs = LogDestination()
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: logs)
        // Every guest takes a file descriptor: the usual soft limit of 1,024 is too few for a big
        // game, or for a host that idle connections are thrown at.
        FileLimit.raiseToHardLimit()
        try await CommandRunner.run {
            // The site's zone is read first: a mistake in it is said before any question is asked.
            let discovery = try dns.discovery()
            let me = try LocalPlayer(name: name, role: .host)
            let game = try room.prepare(game.game, options: gameOptions, besides: Self.self)
            let options = room.hostOptions(style: output.style, json: output.json)
            try await game.host(as: me, session: try me.session(.room), discovery: discovery, options: options, logs: logs)
            withExtendedLifetime(me) {}
        }
    }
}
