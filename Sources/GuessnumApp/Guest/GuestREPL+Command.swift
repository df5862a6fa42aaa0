import Multipeer
import GuessnumTerminal

extension GuestREPL {
    /// `guessnum join` as a person or a script runs it, as `me` on `session`: at `target` if
    /// given, else from the list of games nearby (the one called `gameName` as soon as it is
    /// found, if given). Opens the terminal (closed at the end), remembers hosts and games in
    /// the player's files, takes a private game's password from the environment; disconnects
    /// `session` at the end. Returns the failure to report, if any.
    public static func play(
        as me: LocalPlayer, session: Session, target: JoinArgument?, gameName: String?, discovery: any DiscoveryBackend,
        style: TextStyle, json: Bool, timeout: Duration, logs: LogDestination
    ) async throws -> AppFailure? {
        let terminal = AppTerminal.open(for: target == nil ? .lobby : .player, json: json, logs: logs)
        defer { terminal.close(logs: logs) }
        if let notice = me.notice { terminal.console.print(notice) }
        let guest = GuestREPL(
            session: session, console: terminal.console, inbox: terminal.inbox, discovery: discovery,
            text: GameText(style: style, json: json, me: me.peer.identity), timeout: timeout,
            knownHosts: KnownHosts.standard(), rememberedGames: RememberedGames.standard(), password: try PasswordQuestion.fromEnvironment())
        let failure: AppFailure?
        switch target {
        case .code(let code)?: failure = await guest.run(code: code)
        case .address(let endpoint)?: failure = await guest.run(direct: endpoint, gameName: gameName)
        case nil: failure = await guest.run(direct: nil, gameName: gameName)
        }
        await session.disconnect()
        return failure
    }
}
