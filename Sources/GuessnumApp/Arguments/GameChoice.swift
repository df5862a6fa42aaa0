import ArgumentParser

/// `--game`: which of the program's games a host runs, by its ID — one of ``GameCatalog``'s, the
/// one list of the games (what ArgumentParser validates and completes).
public struct GameChoice: ExpressibleByArgument, Sendable {
    /// The game.
    public let game: PlayableGame

    /// The catalog's first game (the default).
    public static var standard: GameChoice { GameChoice(game: GameCatalog.games[0]) }

    private init(game: PlayableGame) {
        self.game = game
    }

    public init?(argument: String) {
        guard let game = GameCatalog.game(id: argument) else { return nil }
        self.game = game
    }

    public static var allValueStrings: [String] { GameCatalog.kinds.map(\.id) }
    public var defaultValueDescription: String { game.kind.id }
}
