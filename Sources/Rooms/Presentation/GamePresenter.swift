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
/// Sentences are plain text; the program styles and sanitises them. A presenter reads only what
/// the host sent this player, so it can show nothing the player may not see.
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

    /// The lines that tell an event everyone sees (or this player's private reply).
    func lines(for event: Rules.Event) -> [String]
    /// The lines that show the game as it now is to this player, given how it looked before
    /// (nil: never shown); none when nothing worth showing changed.
    func lines(for view: Rules.View, before: Rules.View?) -> [String]
}

extension GamePresenter {
    public static var commands: [GameCommand<Rules>] { [] }

    public static var roundName: String { "round" }

    public mutating func automaticMove(in view: Rules.View) -> Rules.Move? { nil }
}
