import ArgumentParser
import GuessnumTerminal
import Rooms

/// `guessnum host`'s options that hold for every game: the room's limits, the questions asked
/// and the port. The chosen game's own options are its module's (``PlayableGame``).
public struct HostArguments: ParsableArguments {
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

    public init() {}

    public func validate() throws {
        guard maxPlayers >= 1 else { throw ValidationError("--max-players must be at least 1.") }
        guard maxPlayersPerAddress >= 1 else { throw ValidationError("--max-players-per-address must be at least 1.") }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535.") }
        guard (0...3600).contains(grace) else { throw ValidationError("--grace must be from 0 to 3600 seconds.") }
        guard (0...3600).contains(turnTime) else { throw ValidationError("--turn-time must be from 0 to 3600 seconds.") }
    }

    /// The chosen game with its own options read: refused when `--turn-time` is given for a game
    /// without turns, or when an option is not the game's (``PlayableGame/prepare(_:besides:)``).
    public func prepare(_ game: PlayableGame, options: [String], besides command: any ParsableArguments.Type) throws(AppFailure) -> PreparedGame {
        if turnTimeGiven != nil, !game.takesTurns { throw game.refusal(of: "--turn-time", readers: GameCatalog.turnBased) }
        return try game.prepare(options, besides: command)
    }

    /// How the host runs the game, its screen written in `style` (JSON lines when `json`).
    public func hostOptions(style: TextStyle, json: Bool) -> HostOptions {
        HostOptions(
            maximumPlayers: maxPlayers, maximumPlayersPerAddress: maxPlayersPerAddress, grace: grace, turnTime: turnTime, isPrivate: password,
            asks: ask, resumes: resume, port: port, style: style, json: json)
    }
}
