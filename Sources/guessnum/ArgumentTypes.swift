import ArgumentParser
import GuessnumApp
import GuessnumGame
import Logging

// The library's values as command-line arguments. ArgumentParser reports a value it cannot
// read as a usage error (exit 64); options use the throwing `parse` as their transform, so
// that the library's own sentence says what is wrong with the value.

extension GuessRange: ExpressibleByArgument {
    public init?(argument: String) {
        guard let range = try? GuessRange(parsing: argument) else { return nil }
        self = range
    }

    /// `--range`'s reader: the range, or the sentence that says what is wrong.
    static func parse(_ text: String) throws -> GuessRange { try GuessRange(parsing: text) }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `--game`: which of the program's games a host runs, by its ID — one of ``GameCatalog``'s, the
/// one list of the games (what ArgumentParser validates and completes).
struct GameChoice: ExpressibleByArgument, Sendable {
    /// The game.
    let game: PlayableGame

    /// The catalog's first game (the default).
    static var standard: GameChoice { GameChoice(game: GameCatalog.games[0]) }

    private init(game: PlayableGame) {
        self.game = game
    }

    init?(argument: String) {
        guard let game = GameCatalog.game(id: argument) else { return nil }
        self.game = game
    }

    static var allValueStrings: [String] { GameCatalog.kinds.map(\.id) }
    var defaultValueDescription: String { game.kind.id }
}
