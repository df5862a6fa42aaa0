import Rooms

/// How rock-paper-scissors reads and is typed at a terminal: typing a hand seals it (only its
/// commitment goes to the host), and the presenter reveals it by itself once both players have
/// chosen, so a player types one word a throw.
public struct RPSPresenter: GamePresenter {
    public typealias Rules = RPSRules

    /// The hand chosen for the current throw, until it is revealed.
    private var sealed: SealedHand?

    public init() {}

    public var prompt: String { "rps> " }

    public var howToPlay: String {
        "Type rock, paper or scissors (or r, p, s) when asked; your hand stays sealed until both have chosen. Anything else is chat."
    }

    public static func summary(of rules: RPSRules) -> String {
        "rock-paper-scissors, best of \(rules.settings.bestOf)"
    }

    /// Each of the room's rounds is a match.
    public static let roundName = "match"

    public static let commands = [
        GameCommand<RPSRules>("/match", help: "the match so far, and what is next") { [RPSText.summary(of: $0)] },
    ]

    public mutating func input(_ line: String, in view: RPSView?) -> TypedInput<RPSMove> {
        guard let hand = Self.hand(named: line) else { return .chat }
        guard let view, view.next == .commit else {
            return .answer("Not now: " + (view.map(RPSText.prompt(for:)) ?? "the match has not started."))
        }
        let chosen = SealedHand(hand: hand)
        sealed = chosen
        return .play(chosen.commitMove)
    }

    public mutating func automaticMove(in view: RPSView) -> RPSMove? {
        guard view.next == .reveal, let hand = sealed else { return nil }
        sealed = nil
        return hand.revealMove
    }

    public func lines(for event: RPSEvent, to reader: Reader) -> [GameLine] {
        [GameLine(RPSText.sentence(for: event))]
    }

    public func lines(for view: RPSView, before: RPSView?, to reader: Reader) -> [GameLine] {
        text(for: view, before: before).map { GameLine($0) }
    }

    func text(for view: RPSView, before: RPSView?) -> [String] {
        // The reveal is the presenter's own move: nothing to ask of the player.
        guard view.next != before?.next, view.next != .reveal else { return [] }
        return [RPSText.prompt(for: view)]
    }

    /// The hand a typed word names: its name or first letter, in any case.
    static func hand(named word: String) -> Hand? {
        let word = word.lowercased()
        return Hand.allCases.first { $0.rawValue == word || String($0.rawValue.prefix(1)) == word }
    }
}
