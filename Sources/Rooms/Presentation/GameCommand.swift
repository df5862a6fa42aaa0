/// A slash command a game adds for its players and its host: it shows something of the game as
/// the one who types it sees it (`/board`). A game declares its commands once, in its
/// presenter's ``GamePresenter/commands``; the program lists them in `/help` and runs them.
public struct GameCommand<Rules: GameRules>: Sendable {
    /// The name, with its slash ("/board").
    public let name: String
    /// The explanation in `/help`.
    public let help: String
    /// The lines it prints, given the game as the one who typed it sees it.
    public let lines: @Sendable (Rules.View) -> [String]

    /// A command called `name`, explained by `help`, that prints `lines`.
    public init(_ name: String, help: String, lines: @escaping @Sendable (Rules.View) -> [String]) {
        self.name = name
        self.help = help
        self.lines = lines
    }

    /// The command of `commands` that `line` types (its first word, exactly), if any.
    public static func typed(_ line: String, among commands: [GameCommand]) -> GameCommand? {
        let word = line.split(separator: " ", maxSplits: 1).first.map(String.init)
        return commands.first { $0.name == word }
    }
}
