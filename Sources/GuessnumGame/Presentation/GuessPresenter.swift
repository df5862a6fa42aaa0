import Foundation
import Rooms

/// How guess-the-number reads and is typed at a terminal: a whole number is a guess, anything
/// else is chat. It keeps what its player has seen of the game — the round's guesses, the last
/// round, the scores — and checks every reveal against the round's commitment and every verdict
/// it saw, so that a dishonest host is caught on the player's own screen.
public struct GuessPresenter: GamePresenter {
    public typealias Rules = GuessRules

    /// What this player has seen of the game.
    private var seen = SeenGame()

    public init() {}

    public var prompt: String { "guess> " }

    public var howToPlay: String { "A number is a guess; anything else you type is chat." }

    public static func summary(of rules: GuessRules) -> String {
        "numbers \(rules.currentRound?.range ?? rules.settings.range)"
    }

    public mutating func input(_ line: String, in view: GuessView?) -> TypedInput<Int64> {
        switch Submission(line: line) {
        case .guess(let number): .play(number)
        case .tooLarge(let text): .answer(GameError.numberTooLarge(text, range: seen.range ?? view?.range).message)
        case .chat, .ignored: .chat
        }
    }

    public mutating func lines(forWelcome welcome: RoomWelcome<GuessRules>, to reader: Reader) -> [GameLine] {
        [GuessText.welcome(welcome)] + seen.take(welcome.view, checkingReveals: true).map(GuessText.fairness)
    }

    /// The host's screen: the round resumed at (its range and commitment), and nothing for a new
    /// game, whose first round is told as it starts. The host knows the secret: it checks no reveal.
    public mutating func lines(forHosting view: GuessView, resumedAt round: Int?, seatsHeld: Int, to reader: Reader) -> [GameLine] {
        _ = seen.take(view, checkingReveals: false)
        guard round != nil else { return [] }
        let resumed = RoundStarted(sequence: 0, round: view.round, range: view.range, commitment: view.commitment, hostChoseSecret: view.hostChoseSecret)
        return [GuessText.resumed(resumed, seatsHeld: seatsHeld)]
    }

    public mutating func lines(for event: GuessEvent, to reader: Reader) -> [GameLine] {
        switch event {
        case .verdict(let line):
            seen.take(line)
            return [GuessText.verdict(line, to: reader)]
        case .roundStarted(let started):
            seen.take(started)
            return [GuessText.roundStarted(started)]
        case .roundWon(let won):
            return [GuessText.roundWon(won, to: reader)] + seen.take(won).map(GuessText.fairness)
        case .scoreboard(let update):
            seen.take(update)
            return []
        }
    }

    /// Nothing: guess-the-number's host sends no views (everything is in the broadcast).
    public func lines(for view: GuessView, before: GuessView?, to reader: Reader) -> [GameLine] { [] }

    public mutating func renamed(_ player: PlayerRef) {
        seen.scores.rename(player)
    }

    public func history(of events: [GuessEvent], to reader: Reader) -> [GameLine] {
        [GuessText.history(seen.history, round: seen.round, previous: seen.previousRound, to: reader)]
    }

    public func scores(of players: [PlayerRef], to reader: Reader) -> (lines: [StyledText], data: any Encodable & Sendable)? {
        var entries = seen.scores.ranked
        let scored = Set(entries.map(\.player.id))
        entries += players.filter { !scored.contains($0.id) }.map { Scoreboard.Entry(player: $0) }
        return (GuessText.scoreboard(entries), entries)
    }

    public static var playerColumn: String? { "guesses this round" }

    public static var historyHelp: String { "this round's guesses" }

    public static var newRoundHelp: (usage: String, help: String) {
        ("/new [RANGE]", "start a new round, optionally over a new range such as 1-500")
    }

    public func playerColumn(for player: PlayerRef) -> String {
        String(seen.guessesThisRound[player.id, default: 0])
    }

    /// Round number → whether the host was honest in it, as this player checked.
    public var fairnessChecks: [Int: FairnessCheck] { seen.fairnessChecks }
}
