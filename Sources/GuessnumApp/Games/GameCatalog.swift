import GuessnumGame
import RockPaperScissors
import Rooms
import Snap
import TicTacToe

/// The games this program plays: the one list of them. The host command, `--game`, the list of
/// games nearby, the seat a player takes and the refusals that name a host's game all read it.
public enum GameCatalog {
    /// Every game, guess-the-number first (the default of `guessnum host`).
    public static let games: [PlayableGame] = [
        .guessTheNumber,
        .room(TicTacToePresenter.self, settings: [.turnTime]) { _ in TicTacToeRules() },
        .room(RPSPresenter.self, settings: [.turnTime, .bestOf]) { settings in RPSRules(settings: try settings.bestOf.map(RPSSettings.init(bestOf:)) ?? RPSSettings()) },
        .room(SnapPresenter.self, settings: [.turnTime]) { _ in SnapRules() },
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

    /// The IDs of the games that read `setting`, for the host command's help ("tictactoe, rps").
    public static func readers(of setting: HostSetting) -> String {
        games.filter { $0.settings.contains(setting) }.map(\.kind.id).joined(separator: ", ")
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
