import GuessnumGame
import RockPaperScissors
import Rooms
import Snap
import TicTacToe

/// The games this program plays: the one list of them. The host command, its help, `--game`,
/// the list of games nearby, the seat a player takes and the refusals that name a host's game all read it.
public enum GameCatalog {
    /// Every game, guess-the-number first (the default of `guessnum host`).
    public static let games: [PlayableGame] = [
        .guessTheNumber,
        .room(TicTacToePresenter.self, options: TicTacToeOptions.self),
        .room(RPSPresenter.self, options: RPSOptions.self),
        .room(SnapPresenter.self, options: SnapOptions.self),
    ]

    /// Every game's kind, in the list's order.
    public static var kinds: [GameKind] { games.map(\.kind) }

    /// The game whose ID is `id`, if this program plays it.
    public static func game(id: String) -> PlayableGame? {
        games.first { $0.kind.id == id }
    }

    /// The kind of the game whose ID is `id`, if this program knows it.
    public static func kind(id: String) -> GameKind? {
        game(id: id)?.kind
    }

    /// The games whose players take turns (those `--turn-time` is for).
    public static var turnBased: [PlayableGame] { games.filter(\.takesTurns) }

    /// Every game's own options, as the host command's help lists them.
    public static var optionsHelp: String {
        games.map { game in
            "\(game.kind.title) (--game \(game.kind.id)):" + (game.optionsHelp.isEmpty ? " no options of its own." : "\n" + game.optionsHelp)
        }.joined(separator: "\n\n")
    }

    /// A seat for a player of the game `id`, at `repl`; nil for a game this program does not know.
    static func seat(for id: String, at repl: GuestREPL) -> (any GuestSeat)? {
        game(id: id)?.seat(repl)
    }

    /// What a player is told about a game of an ID this program does not know.
    static func unknownGame(_ id: String, host: String) -> String {
        "\(host)'s game is “\(id)”, a game this guessnum does not know; a newer guessnum can join it."
    }
}
