import Foundation
import GuessnumTerminal
import SafeText

/// Every slash command, declared once. To add a command, add it here: `/help`, Tab
/// completion and parsing follow.
public enum CommandTable {
    /// The commands, in the order `/help` lists them.
    public static let commands: [SlashCommand] = [
        SlashCommand(
            "/help",
            host: CommandAction("this list") { host, _ in host.console.print(help(for: .host, in: host.gameHelp)) },
            player: CommandAction("this list") { seat, _ in seat.console.print(help(for: .player, in: seat.gameHelp)) },
            lobby: CommandAction("this list") { lobby, _ in lobby.console.print(help(for: .lobby)) }),
        SlashCommand("/players", showing: "who is in the game: playing or watching, wins") { $0.showPlayers() },
        SlashCommand("/history", showing: "what happened in the game lately") { $0.showHistory() },
        SlashCommand("/score", showing: "the scoreboard") { $0.showScore() },
        SlashCommand(
            "/visible", .choice(["on", "off"]),
            host: CommandAction("announce the game on the LAN, or stop (players stay)") { host, argument in
                await host.setVisible(argument == "on")
            }),
        SlashCommand(
            "/new", .optional("RANGE"),
            host: CommandAction("start a new round now") { host, range in
                host.startNewRound(range: range)
            }),
        SlashCommand(
            "/kick", .required("NAME"), endsSomething: true,
            host: CommandAction("remove a player; they cannot join again for a while") { host, name in host.kick(name ?? "") }),
        SlashCommand(
            "/unkick", .required("NAME"),
            host: CommandAction("let a removed player join again") { host, name in host.unkick(name ?? "") }),
        SlashCommand(
            "/name", .required("NEW"),
            player: CommandAction("change your name") { seat, name in seat.rename(to: name ?? "") }),
        SlashCommand(
            "/leave", endsSomething: true,
            player: CommandAction("leave this game and go back to the list of games", flow: { seat, _ in
                seat.leave()
                return .leave
            })),
        SlashCommand(
            "/quit", endsSomething: true,
            host: CommandAction("end the game (players are told; at a terminal you are asked first)", flow: { host, _ in host.requestEnd() }),
            player: CommandAction("leave and quit", flow: { seat, _ in
                seat.quit()
                return .quit
            }),
            lobby: CommandAction("quit", flow: { _, _ in .quit })),
    ]

    /// The commands `role` has.
    public static func commands(for role: CommandRole) -> [SlashCommand] {
        commands.filter { $0.roles.contains(role) }
    }

    /// Whether a typed line belongs in the input history: not a command that ends something,
    /// which Up and Enter would otherwise repeat by accident.
    public static func keepsInHistory(_ line: String) -> Bool {
        let name = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
        return !commands.contains { $0.endsSomething && $0.name == name }
    }

    /// The words Tab completes for `role`.
    public static func completions(for role: CommandRole) -> [String] {
        commands(for: role).map(\.name)
    }

    /// `/help` for `role` in a game that `game` words (nil: the list of games): a line a
    /// command, the game's own after the shared ones, then what other lines mean.
    public static func help(for role: CommandRole, in game: GameHelp? = nil) -> String {
        let lines = commands.compactMap { $0.helpLine(for: role, wording: game?.wording[$0.name]) } + (game?.commandLines ?? [])
        let footnote = switch role {
        case .host: "Anything else you type is chat."
        case .player: game?.typing ?? "Anything else you type is chat."
        case .lobby: "Type the number of a game to join it. Games appear in the list as they are found."
        }
        return (lines + [footnote]).joined(separator: "\n")
    }

    /// What a typed line asks of `seat`: nil when it is not a slash command; otherwise the
    /// action to run with its argument, or the sentence to answer with (an unknown command,
    /// another role's command, a missing or wrong argument).
    public static func parse<Context>(_ line: String, for seat: CommandSeat<Context>) -> ParsedCommand<Context>? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("/") else { return nil }
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts[0]
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        guard let command = commands.first(where: { $0.name == name }) else {
            return .answer("There is no command \(TerminalText.sanitized(name)); /help lists them.")
        }
        guard let action = command[keyPath: seat.action] else {
            return .answer(wrongRole(command, for: seat.role))
        }
        switch command.argument {
        case .none:
            return .run(action, argument: nil)
        case .optional:
            return .run(action, argument: argument.flatMap { $0.isEmpty ? nil : $0 })
        case .required(let placeholder):
            guard let argument, !argument.isEmpty else { return .answer("Use \(name) \(placeholder).") }
            return .run(action, argument: argument)
        case .choice(let words):
            guard let argument, words.contains(argument) else {
                return .answer("Use " + words.map { "\(name) \($0)" }.joined(separator: " or ") + ".")
            }
            return .run(action, argument: argument)
        }
    }

    private static func wrongRole(_ command: SlashCommand, for role: CommandRole) -> String {
        switch role {
        case .host: "That is a command for players; /help lists the host's."
        case .player: "That is a command for the host; /help lists yours."
        case .lobby: "\(command.name) works in a game; /help lists what works here."
        }
    }
}

/// A typed slash command, parsed for one role.
public enum ParsedCommand<Context>: Sendable {
    /// Run this action with this argument.
    case run(CommandAction<Context>, argument: String?)
    /// Print this sentence instead.
    case answer(String)
}

extension ParsedCommand {
    /// Runs the command on `context`, or prints its answer to `console`; returns what the
    /// REPL does next.
    func perform(on context: Context, console: any Console) async -> CommandFlow {
        switch self {
        case .run(let action, let argument): return await action.run(context, argument)
        case .answer(let sentence):
            console.print(sentence)
            return .stay
        }
    }

    /// Runs the command on `context`, or prints its answer; returns what the REPL does next.
    func perform(on context: Context) async -> CommandFlow where Context: CommandContext {
        await perform(on: context, console: context.console)
    }
}
