import ArgumentParser
import GuessnumApp
import Logging

// The library's values as command-line arguments. ArgumentParser reports a value it cannot
// read as a usage error (exit 64).

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
