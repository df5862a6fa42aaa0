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

    // Defaults are written in the help (not left to ArgumentParser, whose man page omits them).
    @Option(name: .customLong("max-players"), parsing: .unconditional, help: "How many players may join (default: \(Self.defaultMaxPlayers)).")
    var maxPlayersGiven: Int?
    var maxPlayers: Int { maxPlayersGiven ?? Self.defaultMaxPlayers }
    static let defaultMaxPlayers = 100

    @Option(
        name: .customLong("max-players-per-address"),
        parsing: .unconditional,
        help: "How many players may join from one network address (default: \(RoomConfiguration().maximumPlayersPerAddress)).")
    var maxPlayersPerAddressGiven: Int?
    var maxPlayersPerAddress: Int { maxPlayersPerAddressGiven ?? RoomConfiguration().maximumPlayersPerAddress }

    @Option(
        name: .customLong("grace"),
        parsing: .unconditional,
        help: "Seconds the seat of a player whose connection dropped is kept for them; 0 frees it at once (default: \(Self.defaultGrace)).")
    var graceGiven: Int?
    var grace: Int { graceGiven ?? Self.defaultGrace }
    static let defaultGrace = Int(RoomConfiguration().awayGracePeriod.components.seconds)

    @Option(
        name: .customLong("turn-time"),
        parsing: .unconditional,
        help: "Seconds a player has to move when it is their turn; then the game decides for them by its rule; 0: no limit (default: \(Self.defaultTurnTime)).")
    var turnTimeGiven: Int?
    var turnTime: Int { turnTimeGiven ?? Self.defaultTurnTime }
    static let defaultTurnTime = Int(RoomConfiguration().turnTime?.components.seconds ?? 0)

    @Option(parsing: .unconditional, help: "The TCP port to listen on; 0 picks any free port (default: the port your last game listened on, if it is free, so players who joined it find it there again; else any free port).")
    var port: Int?

    @Flag(help: "Go on with this name's interrupted game of the same kind (its program ended without ending it) without asking; without it a script starts a new game.")
    var resume = false

    @Flag(help: "Ask before letting each player in.")
    var ask = false

    @Flag(help: "Make the game private: players need the password you type (hidden) when it starts, or that GUESSNUM_PASSWORD gives.")
    var password = false

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: OutputOptions

    // The chosen game's own options (its module declares them; the help lists them).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var gameOptions: [String] = []

    /// The game with its own options read.
    private func prepared() throws(AppFailure) -> PreparedGame {
        if turnTimeGiven != nil, !game.game.takesTurns { throw game.game.refusal(of: "--turn-time", readers: GameCatalog.turnBased) }
        return try game.game.prepare(gameOptions, besides: Self.self)
    }

    func validate() throws {
        guard maxPlayers >= 1 else { throw ValidationError("--max-players must be at least 1.") }
        guard maxPlayersPerAddress >= 1 else { throw ValidationError("--max-players-per-address must be at least 1.") }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535.") }
        guard (0...3600).contains(grace) else { throw ValidationError("--grace must be from 0 to 3600 seconds.") }
        guard (0...3600).contains(turnTime) else { throw ValidationError("--turn-time must be from 0 to 3600 seconds.") }
        if let name { try JoinCommand.check(name: name) }
        do { _ = try prepared() } catch { throw ValidationError(error.message) }
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
            let options = HostOptions(
                maximumPlayers: maxPlayers, maximumPlayersPerAddress: maxPlayersPerAddress, grace: grace, turnTime: turnTime, isPrivate: password,
                asks: ask, resumes: resume, port: port, style: output.style, json: output.json)
            try await prepared().host(as: me, session: try me.session(.room), discovery: discovery, options: options, logs: logs)
            withExtendedLifetime(me) {}
        }
    }
}
