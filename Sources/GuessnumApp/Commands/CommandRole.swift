/// Where a slash command can be typed.
public enum CommandRole: String, Sendable, Hashable, CaseIterable {
    /// The host, in its game.
    case host
    /// A player, in a game.
    case player
    /// A player looking at the list of games nearby.
    case lobby
}

/// A role and how to reach its action in a ``SlashCommand``: the typed key that lets the
/// command table hand each REPL an action over its own context.
public struct CommandSeat<Context>: Sendable {
    /// The role.
    public let role: CommandRole
    let action: KeyPath<SlashCommand, CommandAction<Context>?> & Sendable
}

extension CommandSeat where Context == any HostScreen {
    /// The host's commands.
    public static var host: CommandSeat<any HostScreen> { CommandSeat(role: .host, action: \.host) }
}

extension CommandSeat where Context == any PlayerScreen {
    /// A player's commands in a game.
    public static var player: CommandSeat<any PlayerScreen> { CommandSeat(role: .player, action: \.player) }
}

extension CommandSeat where Context == GuestREPL {
    /// A player's commands in the list of games.
    public static var lobby: CommandSeat<GuestREPL> { CommandSeat(role: .lobby, action: \.lobby) }
}
