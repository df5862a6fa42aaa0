import Rooms

/// What `/help` says in one game: how the game words the commands every game has, the game's
/// own commands, and what a typed line that is not a command does there.
///
/// The shared commands (``CommandTable``) are worded for any game; a game that means more by
/// one of them (guess-the-number's `/new` takes a range, its `/history` is this round's
/// guesses) says so here, so that a player never reads another game's help.
public struct GameHelp: Sendable {
    /// The usage and explanation of shared commands this game words its own way, by name
    /// ("/new" → ("/new [RANGE]", "start a new round, optionally over a new range such as 1-500")).
    public var wording: [String: (usage: String, help: String)]
    /// The `/help` lines of the game's own commands (`/board`), after the shared ones.
    public var commandLines: [String]
    /// For a player: what a typed line that is not a command does.
    public var typing: String

    /// Help worded for one game.
    public init(wording: [String: (usage: String, help: String)] = [:], commandLines: [String] = [], typing: String) {
        self.wording = wording
        self.commandLines = commandLines
        self.typing = typing
    }
}

extension GameHelp {
    /// A game as `presenter` words it: the shared commands as the table words
    /// them (`/players` with the game's column, `/history` as the game keeps it), then the
    /// presenter's own commands; a typed line does what the presenter's `howToPlay` says.
    static func room<Presenter: GamePresenter>(_ presenter: Presenter) -> GameHelp {
        GameHelp(
            wording: [
                "/new": Presenter.newRoundHelp,
                "/players": ("/players", "who is playing: state, wins" + (Presenter.playerColumn.map { ", " + $0 } ?? "")),
                "/history": ("/history", Presenter.historyHelp),
            ],
            commandLines: Presenter.commands.map(\.helpLine), typing: presenter.howToPlay)
    }
}
