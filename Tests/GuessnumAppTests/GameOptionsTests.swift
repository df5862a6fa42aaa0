import ArgumentParser
@testable import GuessnumApp
import GuessnumGame
import RockPaperScissors
import Testing

/// Each game's own options, declared by its module and read through the catalog: the game
/// chosen reads its own, an option of another game is refused with the games that read it.
@Suite("Each game's own options", .timeLimit(.minutes(1)))
struct GameOptionsTests {
    /// A command with options of its own, as the host command has.
    struct Command: ParsableArguments {
        @Option var name: String?
        @Option(name: .customLong("max-players")) var maxPlayers: Int?
    }

    func game(_ id: String) throws -> PlayableGame { try #require(GameCatalog.game(id: id)) }

    func refusal(_ id: String, _ arguments: [String]) throws -> String? {
        let game = try game(id)
        do {
            _ = try game.prepare(arguments, besides: Command.self)
            return nil
        } catch {
            #expect(error.code == .usage)
            return error.message
        }
    }

    @Test("Each game reads its own options and no other game's; the games that take turns are the three with turns")
    func names() throws {
        #expect(try game("guessnum").optionNames == ["--range", "--secret"])
        #expect(try game("rps").optionNames == ["--best-of"])
        #expect(try game("tictactoe").optionNames.isEmpty && game("snap").optionNames.isEmpty)
        #expect(try game("rps").reads("--best-of=5") && !game("rps").reads("--range"))
        #expect(GameCatalog.turnBased.map(\.kind.id) == ["tictactoe", "rps", "snap"])
    }

    @Test("The game chosen is prepared with its options, wherever they stand and however they are written")
    func prepared() throws {
        #expect(try game("rps").prepare(["--best-of", "5"], besides: Command.self).kind.id == "rps")
        #expect(try game("guessnum").prepare(["--range", "-50-50", "--secret=-3"], besides: Command.self).kind.id == "guessnum")
        #expect(try game("snap").prepare([], besides: Command.self).kind.id == "snap")
        var options = try GuessOptions.parse(["--range", "-50-50", "--secret", "-3"])
        #expect(try options.rules().settings.range == (try GuessRange(parsing: "-50-50")))
        #expect(try options.rules().currentRound?.secret == -3)
        options = try GuessOptions.parse([])
        #expect(try options.rules().settings.range == .standard)
        #expect(try RPSOptions.parse([]).rules().settings.bestOf == 3)
    }

    @Test("An option of another game names the games that read it; a bad value, a mistyped name and an unknown one get their sentences")
    func refusals() throws {
        #expect(try refusal("tictactoe", ["--best-of", "3"]) == "--best-of is for rock-paper-scissors (--game rps), not tic-tac-toe.")
        #expect(try refusal("rps", ["--range=1-10"]) == "--range is for guess-the-number (--game guessnum), not rock-paper-scissors.")
        #expect(try refusal("rps", ["--best-of", "4"]) == "A match cannot be the best of 4 throws; choose an odd number from 1 to 9, such as 3.")
        #expect(try refusal("guessnum", ["--secret", "500"])?.contains("The secret 500 is outside the range 1–100") == true)
        #expect(try refusal("guessnum", ["--range", "banana"])?.contains("“banana” is not a range") == true)
        #expect(try refusal("guessnum", ["--max-player", "3"]) == "Unknown option '--max-player'. Did you mean '--max-players'?", "the command's own")
        #expect(try refusal("rps", ["--bets-of", "3"]) == "Unknown option '--bets-of'. Did you mean '--best-of'?", "a game's")
        #expect(try refusal("snap", ["--bogus"]) == "Unknown option '--bogus'")
        #expect(try refusal("guessnum", []) == nil)
    }

    @Test("The host's help lists each game's own options under its name, and says which have none")
    func help() {
        let help = GameCatalog.optionsHelp
        #expect(help.contains("rock-paper-scissors (--game rps):\n  --best-of <best-of>"), "\(help)")
        #expect(help.contains("guess-the-number (--game guessnum):\n  --range <range>"), "\(help)")
        #expect(help.contains("tic-tac-toe (--game tictactoe): no options of its own."))
        #expect(!help.contains("--help"), "the command has its own help flag")
    }
}
