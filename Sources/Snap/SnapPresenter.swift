import Rooms

/// How snap reads and is typed at a terminal: `t` turns a card over, `s` calls snap; the piles
/// are shown whenever they change, with whose turn it is.
public struct SnapPresenter: GamePresenter {
    public typealias Rules = SnapRules

    public init() {}

    public var prompt: String { "snap> " }

    public var howToPlay: String {
        "On your turn type t (or turn) to turn over your top card; type s (or snap) as soon as two face-up cards match in rank to take those piles, but a wrong snap costs you a card to each other player; anything else is chat."
    }

    public static func summary(of rules: SnapRules) -> String {
        "Snap (the first to call snap on a matching pair takes the piles)"
    }

    public static let commands = [
        GameCommand<SnapRules>("/table", help: "the piles, and whose turn it is") { SnapText.table(of: $0) },
    ]

    /// What the viewer is told when the turn comes to them.
    public static let yourTurn = "Your turn: type t to turn over your card."

    /// `t` or `turn` turns a card over and `s` or `snap` calls snap, in any case; anything else
    /// is chat.
    public mutating func input(_ line: String, in view: SnapView?) -> TypedInput<SnapMove> {
        switch line.lowercased() {
        case "t", "turn": .play(.turn)
        case "s", "snap": .play(.snap)
        default: .chat
        }
    }

    public func lines(for event: SnapEvent, to reader: Reader) -> [GameLine] {
        [GameLine(SnapText.sentence(for: event))]
    }

    /// The piles when they changed, then the viewer's cue when the turn just came to them, or
    /// the status line when it changed.
    public func lines(for view: SnapView, before: SnapView?, to reader: Reader) -> [GameLine] {
        text(for: view, before: before).map { GameLine($0) }
    }

    func text(for view: SnapView, before: SnapView?) -> [String] {
        guard view != before else { return [] }
        let newRound = before?.round != view.round
        var lines: [String] = []
        if !view.players.isEmpty, newRound || view.players != before?.players { lines.append(SnapText.piles(of: view)) }
        if view.isMyTurn {
            if newRound || before?.isMyTurn != true { lines.append(Self.yourTurn) }
        } else if newRound || before.map(SnapText.status(of:)) != SnapText.status(of: view) {
            lines.append(SnapText.status(of: view))
        }
        return lines
    }
}
