/// The slash commands of the REPL, and the help that lists them.
enum SlashCommand: Equatable {
    case help, players, history, score, quit, leave
    case visible(Bool)
    case newRound(String?)
    case kick(String)
    case rename(String)
    case unknown(String)
    case usage(String)

    enum Role { case host, guest }

    /// Every command a role offers, for `/help` and tab completion.
    static func names(for role: Role) -> [String] {
        switch role {
        case .host: ["/help", "/players", "/history", "/score", "/visible", "/new", "/kick", "/quit"]
        case .guest: ["/help", "/players", "/history", "/score", "/name", "/leave", "/quit"]
        }
    }

    static func help(for role: Role) -> String {
        var lines = [
            "/help              this list",
            "/players           who is playing: state, wins, guesses this round",
            "/history           this round's guesses",
            "/score             the scoreboard",
        ]
        switch role {
        case .host:
            lines += [
                "/visible on|off    show or hide the game from `guessnum join` (players stay)",
                "/new [RANGE]       start a new round, optionally over a new range such as 1-500",
                "/kick NAME         remove a player",
                "/quit              end the game (players are told)",
                "Anything else you type is chat.",
            ]
        case .guest:
            lines += [
                "/name NEW          change your name",
                "/leave             leave this game and go back to the list of games",
                "/quit              leave and quit",
                "A number is a guess; anything else you type is chat.",
            ]
        }
        return lines.joined(separator: "\n")
    }

    /// The command a line asks for, or nil when the line is not a command.
    static func parse(_ line: String, role: Role) -> SlashCommand? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("/") else { return nil }
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        let hostOnly: Set<String> = ["/visible", "/new", "/kick"]
        let guestOnly: Set<String> = ["/name", "/leave"]
        if role == .guest, hostOnly.contains(parts[0]) { return .unknown(parts[0]) }
        if role == .host, guestOnly.contains(parts[0]) { return .unknown(parts[0]) }
        switch parts[0] {
        case "/help": return .help
        case "/players": return .players
        case "/history": return .history
        case "/score": return .score
        case "/quit": return .quit
        case "/leave": return .leave
        case "/visible":
            switch argument {
            case "on": return .visible(true)
            case "off": return .visible(false)
            default: return .usage("Use /visible on or /visible off.")
            }
        case "/new": return .newRound(argument)
        case "/kick":
            guard let argument, !argument.isEmpty else { return .usage("Use /kick NAME.") }
            return .kick(argument)
        case "/name":
            guard let argument, !argument.isEmpty else { return .usage("Use /name NEW.") }
            return .rename(argument)
        default: return .unknown(parts[0])
        }
    }
}

import Foundation
