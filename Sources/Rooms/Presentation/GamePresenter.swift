/// What a typed line is in a game: a move, chat, or something answered at once.
public enum TypedInput<Move: Sendable>: Sendable {
    /// The line plays this move.
    case play(Move)
    /// The line is chat for everyone.
    case chat
    /// The line looked like a move but is not one: say this instead of sending anything.
    case answer(String)
}

/// How a game reads and is typed at a terminal: the one piece a game adds to the program beside
/// its ``GameRules``. A presenter is a value the player's seat keeps (a game whose moves need a
/// secret, such as a sealed hand, keeps it here until the move that shows it).
///
/// Each line is a ``GameLine``: ``StyledText`` whose runs say how they stand out, written for a
/// ``Reader`` (the player's own moves read "you"), optionally named for `--json`; the program
/// makes every run safe to print and styles it as its screen can. A presenter reads only what the
/// host sent this player, so it can show nothing the player may not see; one that keeps what its
/// player has seen (guess-the-number's round and scores) takes it in as it tells it.
///
/// ```swift
/// struct TicTacToePresenter: GamePresenter {
///     func input(_ line: String, in view: TicTacToeView?) -> TypedInput<TicTacToeMove> {
///         guard let square = Int(line) else { return .chat }
///         return .play(.place(square))
///     }
///     …
/// }
/// ```
public protocol GamePresenter<Rules>: Sendable {
    /// The game this presents.
    associatedtype Rules: GameRules

    /// A presenter for a player who just sat down.
    init()

    /// The prompt while in this game ("tictactoe> ").
    var prompt: String { get }
    /// What the player is told on joining about what to type ("Type a square 1–9 to play").
    var howToPlay: String { get }
    /// What the host's banner says of the game ("tic-tac-toe", "rock-paper-scissors, best of 3").
    static func summary(of rules: Rules) -> String
    /// The game's own slash commands, for players and host alike (none by default).
    static var commands: [GameCommand<Rules>] { get }
    /// What one of the room's rounds is called in this game, in "Scores after round 2"
    /// ("round" by default; rock-paper-scissors plays matches).
    static var roundName: String { get }

    /// What `line` (trimmed, not a slash command, not empty) does, given the game as this
    /// player sees it.
    mutating func input(_ line: String, in view: Rules.View?) -> TypedInput<Rules.Move>
    /// A move the presenter plays by itself now that the game looks like `view` (revealing a
    /// sealed hand once both have chosen); nil for none.
    mutating func automaticMove(in view: Rules.View) -> Rules.Move?

    /// What the player `you` reads on being welcomed into the room, which `welcome` shows as it
    /// is (by default "You play as bob with alice."). A presenter that keeps what the player has
    /// seen starts from here.
    mutating func lines(forWelcome welcome: RoomWelcome<Rules>, to reader: Reader) -> [GameLine]
    /// The lines that tell an event everyone sees (or this player's private reply), in the order
    /// they happened; a presenter that keeps what the player has seen takes it in here.
    mutating func lines(for event: Rules.Event, to reader: Reader) -> [GameLine]
    /// The lines that show the game as it now is to this player, given how it looked before
    /// (nil: never shown); none when nothing worth showing changed.
    mutating func lines(for view: Rules.View, before: Rules.View?, to reader: Reader) -> [GameLine]
    /// `player` is now called as it says (a presenter that keeps names takes it in).
    mutating func renamed(_ player: PlayerRef)

    /// How `/help` shows the host's `/new` (`("/new", "start a new round now")` by default; a
    /// game whose rules take an argument, ``GameRules/prepareRound(asked:)``, says which).
    static var newRoundHelp: (usage: String, help: String) { get }
    /// What the host reads on starting to serve the game as `view` shows it: for a game resumed
    /// from its store at `round`, with `seatsHeld` seats held for players not back yet, that it
    /// goes on (by default "The game resumed at round 2."); nothing by default for a new game. A
    /// presenter that keeps what its reader has seen starts from `view` here.
    mutating func lines(forHosting view: Rules.View, resumedAt round: Int?, seatsHeld: Int, to reader: Reader) -> [GameLine]
    /// What `/help` says `/history` shows ("what happened in the game lately" by default).
    static var historyHelp: String { get }
    /// `/history`, given the game's latest `events` (by default each told again, in order).
    func history(of events: [Rules.Event], to reader: Reader) -> [GameLine]
    /// `/score` and the end of the game, when the game keeps scores of its own: each line and
    /// what a program reads for them, `players` (everyone in the room now) listed even with
    /// nothing to their name (nil, the default: the room's wins).
    func scores(of players: [PlayerRef], to reader: Reader) -> (lines: [StyledText], data: any Encodable & Sendable)?
    /// The title of a column the game adds to `/players` ("guesses this round"); nil for none.
    static var playerColumn: String? { get }
    /// What that column says of `player`.
    func playerColumn(for player: PlayerRef) -> String
}

extension GamePresenter {
    public static var commands: [GameCommand<Rules>] { [] }

    public static var roundName: String { "round" }

    public mutating func automaticMove(in view: Rules.View) -> Rules.Move? { nil }

    public mutating func lines(forWelcome welcome: RoomWelcome<Rules>, to reader: Reader) -> [GameLine] {
        let others = welcome.players.filter { $0.id != welcome.you.id }.map(\.displayText)
        let text = "You play as \(welcome.you.displayText)" + (others.isEmpty ? "; nobody else is here yet." : " with \(others.joined(separator: ", ")).")
        return [GameLine(StyledText(text), record: GameLine.Record("welcome", welcome))]
    }

    public mutating func renamed(_ player: PlayerRef) {}

    public func history(of events: [Rules.Event], to reader: Reader) -> [GameLine] {
        var presenter = self  // told again: what this presenter keeps stays as it is
        return events.flatMap { presenter.lines(for: $0, to: reader) }
    }

    public func scores(of players: [PlayerRef], to reader: Reader) -> (lines: [StyledText], data: any Encodable & Sendable)? { nil }

    public static var playerColumn: String? { nil }

    public static var historyHelp: String { "what happened in the game lately" }

    public static var newRoundHelp: (usage: String, help: String) { ("/new", "start a new round now") }

    public mutating func lines(forHosting view: Rules.View, resumedAt round: Int?, seatsHeld: Int, to reader: Reader) -> [GameLine] {
        guard let round else { return [] }
        return [GameLine("The game resumed at \(Self.roundName) \(round)." + Self.seatsHeld(seatsHeld))]
    }

    /// " 2 seats are held for players who have not come back yet." (nothing for none).
    public static func seatsHeld(_ count: Int) -> String {
        count == 0 ? "" : " " + (count == 1 ? "1 seat is" : "\(count) seats are") + " held for players who have not come back yet."
    }

    public func playerColumn(for player: PlayerRef) -> String { "" }

    /// The lines for `event` as plain text, told to nobody in particular (what tests and logs read).
    public mutating func plainLines(for event: Rules.Event) -> [String] {
        lines(for: event, to: .anyone).map(\.text.plain)
    }

    /// The lines for `view` as plain text (what tests read).
    public mutating func plainLines(for view: Rules.View, before: Rules.View?) -> [String] {
        lines(for: view, before: before, to: .anyone).map(\.text.plain)
    }
}
