import Foundation
import GuessnumGame
import GuessnumTerminal

/// What follows a command's name.
public enum CommandArgument: Sendable, Equatable {
    /// Nothing.
    case none
    /// A word that must be given, shown as `NAME`.
    case required(String)
    /// A word that may be given, shown as `[RANGE]`.
    case optional(String)
    /// One of a few words, shown as `on|off`.
    case choice([String])

    /// How the argument is shown in `/help`.
    var usage: String {
        switch self {
        case .none: ""
        case .required(let name): name
        case .optional(let name): "[\(name)]"
        case .choice(let words): words.joined(separator: "|")
        }
    }
}

/// What the REPL does after a command.
public enum CommandFlow: Sendable, Equatable {
    /// Goes on reading.
    case stay
    /// Leaves the game (back to the list of games, or out when there is none).
    case leave
    /// Quits the program.
    case quit
}

/// What a command does for one role: its line in `/help` and its handler, which gets the
/// role's context and the argument (already checked against the command's ``CommandArgument``).
public struct CommandAction<Context>: Sendable {
    /// The explanation in `/help`.
    public let help: String
    let run: @Sendable (Context, String?) async -> CommandFlow

    /// An action that always stays in the REPL.
    init(_ help: String, _ run: @escaping @Sendable (Context, String?) async -> Void) {
        self.help = help
        self.run = { context, argument in
            await run(context, argument)
            return .stay
        }
    }

    /// An action that decides the REPL's flow.
    init(_ help: String, flow run: @escaping @Sendable (Context, String?) async -> CommandFlow) {
        self.help = help
        self.run = run
    }
}

/// One slash command, declared once in ``CommandTable``: its name, argument, and an action for
/// each role that has it. `/help`, Tab completion and parsing all read the declaration.
public struct SlashCommand: Sendable {
    /// The name, with its slash ("/kick").
    public let name: String
    /// What follows the name.
    public let argument: CommandArgument
    /// Whether it ends something (a game, a seat): kept out of the input history.
    public let endsSomething: Bool
    /// What the host's command does, if the host has it.
    let host: CommandAction<any HostScreen>?
    /// What a player's command does in a game, if players have it.
    let player: CommandAction<any PlayerScreen>?
    /// What it does in the list of games, if it is there.
    let lobby: CommandAction<GuestREPL>?

    init(
        _ name: String, _ argument: CommandArgument = .none, endsSomething: Bool = false,
        host: CommandAction<any HostScreen>? = nil, player: CommandAction<any PlayerScreen>? = nil, lobby: CommandAction<GuestREPL>? = nil
    ) {
        self.name = name
        self.argument = argument
        self.endsSomething = endsSomething
        self.host = host
        self.player = player
        self.lobby = lobby
    }

    /// A command that shows part of the game the same way to the host and to players.
    init(_ name: String, showing help: String, _ show: @escaping @Sendable (any GameScreen) -> Void) {
        self.init(name, host: CommandAction(help) { screen, _ in show(screen) }, player: CommandAction(help) { screen, _ in show(screen) })
    }

    /// The roles that have the command.
    public var roles: Set<CommandRole> {
        var roles: Set<CommandRole> = []
        if host != nil { roles.insert(.host) }
        if player != nil { roles.insert(.player) }
        if lobby != nil { roles.insert(.lobby) }
        return roles
    }

    /// The `/help` line for `role`, if the role has the command, worded as a game words it
    /// (`wording`), else as declared.
    func helpLine(for role: CommandRole, wording: (usage: String, help: String)? = nil) -> String? {
        let help: String? = switch role {
        case .host: host?.help
        case .player: player?.help
        case .lobby: lobby?.help
        }
        guard let help else { return nil }
        if let wording { return Self.helpLine(wording.usage, wording.help) }
        return Self.helpLine(argument == .none ? name : "\(name) \(argument.usage)", help)
    }

    /// A `/help` line: the usage, padded, then what it does.
    static func helpLine(_ usage: String, _ help: String) -> String {
        usage.padding(toLength: max(usage.count + 2, 19), withPad: " ", startingAt: 0) + help
    }
}

/// What every REPL that runs commands offers them.
public protocol CommandContext {
    /// Where the command's answer is printed.
    var console: any Console { get }
}

/// A REPL that shows a game: the host's, or a player's in a game.
public protocol GameScreen: CommandContext {
    /// `/players`: who is playing.
    func showPlayers()
    /// `/history`: this round's guesses.
    func showHistory()
    /// `/score`: the scoreboard.
    func showScore()
}

/// The host's screen, whatever the game: what the host's commands act on.
public protocol HostScreen: GameScreen, Sendable {
    /// What `/help` says in this game.
    var gameHelp: GameHelp { get }
    /// `/visible on|off`.
    func setVisible(_ visible: Bool) async
    /// `/new [RANGE]`: a new round (a range only where the game has one).
    func startNewRound(range: String?)
    /// `/kick NAME`.
    func kick(_ name: String)
    /// `/unkick NAME`.
    func unkick(_ name: String)
    /// `/quit`: ends the game, after asking when players are in.
    func requestEnd() -> CommandFlow
}

/// A player's screen in a game, whatever the game: what a player's commands act on.
public protocol PlayerScreen: GameScreen, Sendable {
    /// What `/help` says in this game.
    var gameHelp: GameHelp { get }
    /// `/name NEW`.
    func rename(to name: String)
    /// `/leave`: says goodbye to the host.
    func leave()
    /// `/quit`, or the end of input: says goodbye to the host.
    func quit()
}

extension GameCommand {
    /// Its `/help` line.
    var helpLine: String { SlashCommand.helpLine(name, help) }
}
