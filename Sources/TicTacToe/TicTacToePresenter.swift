import Rooms

/// How tic-tac-toe reads and is typed at a terminal: a square's number takes it; the board is
/// drawn whenever it changes, with whose turn it is.
public struct TicTacToePresenter: GamePresenter {
    public typealias Rules = TicTacToeRules

    public init() {}

    public var prompt: String { "tictactoe> " }

    public var howToPlay: String {
        "On your turn, type a square's number (1–9) to take it; anything else is chat."
    }

    public static func summary(of rules: TicTacToeRules) -> String {
        "tic-tac-toe (two play a round, the others watch)"
    }

    public static let commands = [
        GameCommand<TicTacToeRules>("/board", help: "the board, and whose turn it is") { TicTacToeText.lines(of: $0.board) + [TicTacToeText.status(of: $0)] },
    ]

    public mutating func input(_ line: String, in view: TicTacToeView?) -> TypedInput<TicTacToeMove> {
        guard let number = Int(line) else { return .chat }
        guard Square(number) != nil else { return .answer("There is no square \(number): the squares are 1 to 9.") }
        return .play(.place(square: number))
    }

    public func lines(for event: TicTacToeEvent, to reader: Reader) -> [GameLine] {
        [GameLine(TicTacToeText.sentence(for: event))]
    }

    public func lines(for view: TicTacToeView, before: TicTacToeView?, to reader: Reader) -> [GameLine] {
        text(for: view, before: before).map { GameLine($0) }
    }

    func text(for view: TicTacToeView, before: TicTacToeView?) -> [String] {
        guard view != before else { return [] }
        let status = TicTacToeText.status(of: view)
        let boardChanged = before?.x == nil || view.board != before?.board || view.round != before?.round
        if !boardChanged, let before, TicTacToeText.status(of: before) == status { return [] }
        return (boardChanged && view.x != nil ? TicTacToeText.lines(of: view.board) : []) + [status]
    }
}
