import Foundation
@testable import GuessnumApp
import GuessnumGame
import RockPaperScissors
import Snap
import Testing
import TicTacToe

@Suite("The slash-command table", .timeLimit(.minutes(1)))
struct CommandTableTests {
    @Test("Help for each role lists exactly the commands that role has, in the table's order")
    func helpFromTable() {
        for role in CommandRole.allCases {
            let help = CommandTable.help(for: role).split(separator: "\n").map(String.init)
            let listed = help.compactMap { $0.hasPrefix("/") ? String($0.prefix { $0 != " " }) : nil }
            #expect(listed == CommandTable.completions(for: role), "\(role): \(help)")
        }
        #expect(CommandTable.completions(for: .host) == ["/help", "/players", "/history", "/score", "/visible", "/new", "/kick", "/unkick", "/quit"])
        #expect(CommandTable.completions(for: .player) == ["/help", "/players", "/history", "/score", "/name", "/leave", "/quit"])
        #expect(CommandTable.completions(for: .lobby) == ["/help", "/quit"])
    }
}

extension CommandTableTests {
    @Test("A line that is not a slash command is not parsed; leading spaces are allowed")
    func notACommand() {
        #expect(CommandTable.parse("hello", for: .host) == nil)
        #expect(CommandTable.parse("42", for: .player) == nil)
        #expect(CommandTable.parse("", for: .lobby) == nil)
        #expect(CommandTable.parse("  /help", for: .host).map(answer) == .some(nil), "runs /help")
    }

    @Test("Unknown commands, other roles' commands and bad arguments are answered with a sentence", arguments: [
        ("/frobnicate", CommandRole.host, "There is no command /frobnicate; /help lists them."),
        ("/name bob", .host, "That is a command for players; /help lists the host's."),
        ("/kick bob", .player, "That is a command for the host; /help lists yours."),
        ("/players", .lobby, "/players works in a game; /help lists what works here."),
        ("/kick", .host, "Use /kick NAME."),
        ("/kick   ", .host, "Use /kick NAME."),
        ("/visible", .host, "Use /visible on or /visible off."),
        ("/visible yes", .host, "Use /visible on or /visible off."),
        ("/name", .player, "Use /name NEW."),
        ("/\u{1B}[2J", .player, "There is no command /\u{FFFD}[2J; /help lists them."),
    ])
    func answers(line: String, role: CommandRole, sentence: String) {
        #expect(parsedAnswer(line, role) == sentence)
    }

    @Test("Arguments reach the action trimmed; an optional argument may be left out")
    func arguments() async {
        #expect(parsedArgument("/kick  bob ", .host) == .some("bob"))
        #expect(parsedArgument("/visible off", .host) == .some("off"))
        #expect(parsedArgument("/new", .host) == .some(nil))
        #expect(parsedArgument("/new 1-500", .host) == .some("1-500"))
        #expect(parsedArgument("/name bobby tables", .player) == .some("bobby tables"))
    }

    @Test("Help lines are aligned in one column and name each argument")
    func helpLayout() {
        let host = CommandTable.help(for: .host, in: .room(GuessPresenter()))
        #expect(host.contains("/visible on|off    announce the game on the LAN, or stop (players stay)"))
        #expect(host.contains("/new [RANGE]       start a new round"))
        #expect(host.contains("/kick NAME         remove a player"))
        #expect(host.hasSuffix("Anything else you type is chat."))
        let player = CommandTable.help(for: .player, in: .room(GuessPresenter()))
        #expect(player.contains("/name NEW          change your name"))
        #expect(player.contains("/quit              leave and quit"))
        for line in (host + "\n" + player).split(separator: "\n") where line.hasPrefix("/") {
            #expect(line.dropFirst(19).first != " " && line.prefix(19).last == " ", "column 20: \(line)")
        }
    }

    private func answer<Context>(_ parsed: ParsedCommand<Context>) -> String? {
        if case .answer(let sentence) = parsed { return sentence }
        return nil
    }

    private func parsedAnswer(_ line: String, _ role: CommandRole) -> String? {
        switch role {
        case .host: CommandTable.parse(line, for: .host).flatMap(answer)
        case .player: CommandTable.parse(line, for: .player).flatMap(answer)
        case .lobby: CommandTable.parse(line, for: .lobby).flatMap(answer)
        }
    }

    /// The argument the action would get; nil when the line is not run.
    private func parsedArgument(_ line: String, _ role: CommandRole) -> String?? {
        func argument<Context>(_ parsed: ParsedCommand<Context>?) -> String?? {
            guard case .run(_, let argument)? = parsed else { return nil }
            return .some(argument)
        }
        return switch role {
        case .host: argument(CommandTable.parse(line, for: .host))
        case .player: argument(CommandTable.parse(line, for: .player))
        case .lobby: argument(CommandTable.parse(line, for: .lobby))
        }
    }
}

extension CommandTableTests {
    @Test("Each game's /help is its own: guess-the-number's speaks of guesses and a range; a room game's of neither, and lists its own commands and what typing does", arguments: [
        ("tic-tac-toe", GameHelp.room(TicTacToePresenter()), "/board"),
        ("rock-paper-scissors", GameHelp.room(RPSPresenter()), "/match"),
        ("Snap", GameHelp.room(SnapPresenter()), "/table"),
    ])
    func perGameHelp(game: String, help: GameHelp, command: String) {
        let guessing = CommandTable.help(for: .player, in: .room(GuessPresenter()))
        #expect(guessing.contains("this round's guesses") && guessing.hasSuffix("A number is a guess; anything else you type is chat."))
        #expect(CommandTable.help(for: .host, in: .room(GuessPresenter())).contains("such as 1-500"))
        for role in [CommandRole.host, .player] {
            let text = CommandTable.help(for: role, in: help)
            for word in ["guess", "RANGE", "range"] { #expect(!text.contains(word), "\(game) \(role) help says \(word): \(text)") }
            #expect(text.split(separator: "\n").contains { $0.hasPrefix(command + " ") }, "\(game) \(role): \(text)")
        }
        #expect(CommandTable.help(for: .host, in: help).contains("/new               start a new round now"))
        #expect(CommandTable.help(for: .player, in: help).hasSuffix(help.typing))
    }

    @Test("The README shows exactly what /help prints for each role")
    func readmeMatchesHelp() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for role in CommandRole.allCases {
            let help = CommandTable.help(for: role, in: role == .lobby ? nil : .room(GuessPresenter()))
            #expect(text.contains("```text\n" + help + "\n```"), "README.md lacks /help for \(role)")
        }
        for option in ["--json", "--log-level", "--no-color", "--ask", "--max-players", "--game", "--timeout"] {
            #expect(text.contains(option), "README.md's command table lacks \(option)")
        }
    }
}

extension CommandTableTests {
    @Test("Commands that end something stay out of the input history, so Up and Enter cannot repeat them")
    func history() {
        for line in ["/quit", " /quit ", "/leave", "/kick bob"] { #expect(!CommandTable.keepsInHistory(line), "\(line)") }
        for line in ["42", "hello", "/players", "/score", "/quitting is not a command", "/unkick bob"] { #expect(CommandTable.keepsInHistory(line), "\(line)") }
    }
}
