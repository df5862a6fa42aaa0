import Foundation
import Rooms

/// Guess-the-number's sentences, for whoever reads them (``Rooms/Reader``): "you" for the
/// reader's own guesses, each with the event a program reads for it (`--json`).
public enum GuessText {
    /// "bob guessed 50: too high", "you guessed 7: correct! You win round 2."
    public static func verdict(_ judged: JudgedGuess, to reader: Reader) -> GameLine {
        let who = reader.name(judged.player)
        let text: StyledText
        switch judged.verdict {
        case .correct:
            text = ("\(who) guessed \(judged.guess): correct!" as StyledText).coloured(.success) + (reader.isMe(judged.player) ? " You win round \(judged.round)." : "")
        case .tooLow, .tooHigh:
            text = "\(who) guessed \(judged.guess): \(judged.verdict)"
        case .outOfRange, .roundOver:
            text = ("\(who) guessed \(judged.guess): \(judged.verdict.hint)" as StyledText).coloured(.warning)
        }
        return GameLine(text, record: GameLine.Record("verdict", judged))
    }

    /// "Round 3 starts: guess a number from 1 to 100. (commitment 1a2b…)"
    public static func roundStarted(_ event: RoundStarted) -> GameLine {
        let text = StyledText("Round \(event.round) starts: guess a number from \(event.range.lowerBound) to \(event.range.upperBound).", colour: .news)
        return GameLine(text + commitment(event.commitment, hostChoseSecret: event.hostChoseSecret == true), record: GameLine.Record("roundStarted", event))
    }

    /// What the host reads when its game goes on from its store: the round it resumed at, not a
    /// new one, and how many seats are held for players who have not come back yet.
    public static func resumed(_ event: RoundStarted, seatsHeld: Int) -> GameLine {
        let held = GuessPresenter.seatsHeld(seatsHeld)
        let text = StyledText("The game resumed at round \(event.round): numbers from \(event.range.lowerBound) to \(event.range.upperBound).", colour: .news)
        return GameLine(text + commitment(event.commitment, hostChoseSecret: event.hostChoseSecret == true) + StyledText(held), record: GameLine.Record("resumed", event))
    }

    /// " (commitment 1a2b3c4d5e6f7a8b…)", faint.
    private static func commitment(_ commitment: Commitment, hostChoseSecret: Bool) -> StyledText {
        StyledText(" (commitment \(commitment.hex.prefix(16))…\(hostChoseSecret ? "; the host chose this secret" : ""))", weight: .faint)
    }

    /// "bob won round 3 with 4 guesses. The secret was 42."
    public static func roundWon(_ event: RoundWon, to reader: Reader) -> GameLine {
        let secret = "The secret was \(event.secret)"
        let text: StyledText
        if let winner = event.winner {
            let guesses = event.winningGuesses.map { " with " + Wording.count($0, "guess", "guesses") } ?? ""
            text = "\(reader.isMe(winner) ? "You" : reader.name(winner)) won round \(event.round)\(guesses). \(secret)."
        } else {
            text = "Round \(event.round) ended without a winner. \(secret)."
        }
        return GameLine(text.coloured(.news), record: GameLine.Record("roundWon", event))
    }

    /// Whether round `check.round` was fair, as a player's own check found it.
    public static func fairness(_ check: FairnessCheck) -> GameLine {
        let record = GameLine.Record(
            "fairness", FairnessLine(round: check.round, honest: check.isHonest, problems: check.problems, hostChoseSecret: check.hostChoseSecret))
        guard check.isHonest else {
            return GameLine(StyledText("Round \(check.round) was NOT fair: \(check.problems.joined(separator: "; ")).", colour: .alarm), record: record)
        }
        guard !check.hostChoseSecret else {
            let text = "Round \(check.round): the reveal matches the commitment and every verdict; the host chose this secret itself, so this shows only that it did not change during the round."
            return GameLine(StyledText(text, weight: .faint), record: record)
        }
        return GameLine(StyledText("Round \(check.round) was fair: the reveal matches the commitment and every verdict.", weight: .faint), record: record)
    }

    /// "Welcome, bob! Round 3: numbers 1-100."
    public static func welcome(_ welcome: RoomWelcome<GuessRules>) -> GameLine {
        let text = "Welcome, \(welcome.you.displayText)! Round \(welcome.view.round): numbers \(welcome.view.range)."
            + (welcome.view.hostChoseSecret ? " " + chosenSecret : "")
        return GameLine(StyledText(text), record: GameLine.Record("welcome", WelcomeMessage(you: welcome.you, game: GuessCodec.state(of: welcome))))
    }

    /// What a player is told when the host picks the secrets itself.
    public static let chosenSecret = "The host chooses the secrets in this game, so the fairness check proves only that a secret did not change during its round."

    /// The scoreboard's lines: "1. bob: 2 wins, 9 guesses, best round 3 guesses".
    public static func scoreboard(_ entries: [Scoreboard.Entry]) -> [StyledText] {
        entries.enumerated().map { index, entry in
            StyledText(
                "\(index + 1). \(entry.player.displayText): \(Wording.count(entry.wins, "win")), \(Wording.count(entry.guesses, "guess", "guesses"))"
                    + (entry.bestRound.map { ", best round \(Wording.count($0, "guess", "guesses"))" } ?? ""))
        }
    }

    /// `/history` in round `round`: its guesses, or while it has none, the last round's,
    /// labelled with how it ended (so the last round can still be seen once the next starts).
    public static func history(_ judgements: [Judgement], round: Int, previous: FinishedRound?, to reader: Reader) -> GameLine {
        let record = GameLine.Record("history", judgements)
        guard judgements.isEmpty, let previous, previous.number < round else {
            let text = judgements.isEmpty ? "No guesses yet this round." : judgements.map(\.displayText).joined(separator: "\n")
            return GameLine(StyledText(text), record: record)
        }
        var ended = ""
        if let reveal = previous.reveal {
            let winner = reveal.winner.map { reader.isMe($0) ? "you won it" : "\($0.displayText) won it" } ?? "nobody won it"
            ended = " (\(winner); the secret was \(reveal.secret))"
        }
        let lines = previous.history.isEmpty ? ["Nobody guessed."] : previous.history.map(\.displayText)
        return GameLine(StyledText((["No guesses yet in round \(round). Round \(previous.number)\(ended):"] + lines).joined(separator: "\n")), record: record)
    }
}

/// A fairness check as a program reads it.
private struct FairnessLine: Encodable {
    let round: Int
    let honest: Bool
    let problems: [String]
    let hostChoseSecret: Bool
}
