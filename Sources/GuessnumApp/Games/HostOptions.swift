import GuessnumTerminal
import Multipeer
import Rooms

/// How `guessnum host` runs a game, whatever the game: the room's limits, the questions asked,
/// the port, and how the host's screen is written.
public struct HostOptions: Sendable {
    /// The room's limits: players, players per address, held seats' grace, turn time.
    public var room: RoomConfiguration
    /// Whether the game is private (the host is asked for its password).
    public var isPrivate: Bool
    /// Whether the host is asked before each player is let in (`--ask`).
    public var asks: Bool
    /// Whether to go on with an interrupted game without asking (`--resume`).
    public var resumes: Bool
    /// The port to listen on (nil: the last game's, else any; 0: any).
    public var port: Int?
    /// How the host's screen is written.
    public var style: TextStyle
    /// Whether the host's screen is JSON lines.
    public var json: Bool

    /// Options as the host command's flags give them; `grace` and `turnTime` in seconds (a turn
    /// time of 0: no limit).
    public init(
        maximumPlayers: Int, maximumPlayersPerAddress: Int, grace: Int, turnTime: Int, isPrivate: Bool, asks: Bool, resumes: Bool, port: Int?,
        style: TextStyle, json: Bool
    ) {
        room = RoomConfiguration()
        room.maximumPlayers = maximumPlayers
        room.maximumPlayersPerAddress = maximumPlayersPerAddress
        room.awayGracePeriod = .seconds(grace)
        room.turnTime = turnTime > 0 ? .seconds(turnTime) : nil
        (self.isPrivate, self.asks, self.resumes, self.port, self.style, self.json) = (isPrivate, asks, resumes, port, style, json)
    }
}

extension PreparedGame {
    /// Hosts this game as `guessnum host` does, as `me` on `session`, announced through
    /// `discovery`: opens the host's terminal (closed at the end), prints the key's notice,
    /// asks for a private game's password, and serves until the host ends the game.
    public func host(
        as me: LocalPlayer, session: Session, discovery: any DiscoveryBackend, options: HostOptions, logs: LogDestination
    ) async throws {
        let terminal = AppTerminal.open(for: .host, json: options.json, logs: logs)
        defer { terminal.close(logs: logs) }
        if let notice = me.notice { terminal.console.print(notice) }
        let password = options.isPrivate ? try await PasswordQuestion.askHost(console: terminal.console, inbox: terminal.inbox) : nil
        let setup = HostSetup(
            name: me.peer.displayName, session: session, terminal: terminal, discovery: discovery,
            text: GameText(style: options.style, json: options.json, me: me.peer.identity), room: options.room, password: password,
            asks: options.asks, resumes: options.resumes, port: options.port, owner: me.endorsement?.ownerIdentity)
        try await host(setup)
    }
}
