import GuessnumGame
import RockPaperScissors
import TicTacToe

/// The games this program plays: the one place that names them all.
public enum GameCatalog {
    /// Every game, guess-the-number first.
    public static let kinds: [GameKind] = [GameProtocol.kind, TicTacToeRules.kind, RPSRules.kind]

    /// The game whose ID is `id`, if this program knows it.
    public static func kind(id: String) -> GameKind? {
        kinds.first { $0.id == id }
    }

    /// A seat for a player of the game `id`, at `repl`; nil for a game this program does not know.
    static func seat(for id: String, at repl: GuestREPL) -> (any GuestSeat)? {
        switch id {
        case GameProtocol.kind.id: PlayerSeat(repl: repl)
        case TicTacToeRules.kind.id: RoomSeat<TicTacToePresenter>(repl: repl)
        case RPSRules.kind.id: RoomSeat<RPSPresenter>(repl: repl)
        default: nil
        }
    }

    /// What a player is told about a game of an ID this program does not know.
    static func unknownGame(_ id: String, host: String) -> String {
        "\(host)'s game is “\(id)”, a game this guessnum does not know; a newer guessnum can join it."
    }
}
