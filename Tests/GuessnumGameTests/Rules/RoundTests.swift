import Foundation
import GuessnumGame
import Testing

@Suite("Judging guesses in a round", .timeLimit(.minutes(2)))
struct RoundTests {
    let bob = PlayerRef(id: UUID(), name: "bob")
    let carol = PlayerRef(id: UUID(), name: "carol")

    @Test("Verdicts against secret 42 in 1–100", arguments: [
        (Int64(41), Verdict.tooLow), (43, .tooHigh), (42, .correct), (1, .tooLow), (100, .tooHigh),
        (0, .outOfRange(.standard)), (101, .outOfRange(.standard)), (-42, .outOfRange(.standard)),
        (.min, .outOfRange(.standard)), (.max, .outOfRange(.standard)),
    ])
    func verdicts(guess: Int64, expected: Verdict) throws {
        var round = try Round(number: 1, range: .standard, secret: 42)
        #expect(round.judge(guess: guess, by: bob) == expected)
    }

    @Test("Secrets at the bounds are found, and their neighbours are out of range", arguments: [
        (Int64(1), Int64(0), Int64(2)), (100, 99, 101),
    ])
    func secretAtBound(secret: Int64, below: Int64, above: Int64) throws {
        var round = try Round(number: 1, range: .standard, secret: secret)
        #expect(round.judge(guess: below, by: bob) == (secret == 1 ? .outOfRange(.standard) : .tooLow))
        #expect(round.judge(guess: above, by: bob) == (secret == 100 ? .outOfRange(.standard) : .tooHigh))
        #expect(round.judge(guess: secret, by: bob) == .correct)
    }

    @Test("Negative ranges judge like any other", arguments: [
        (Int64(-51), Verdict.outOfRange(try! GuessRange(-50, 50))), (-50, .tooLow), (-8, .tooLow), (-7, .correct),
        (0, .tooHigh), (50, .tooHigh), (51, .outOfRange(try! GuessRange(-50, 50))),
    ])
    func negativeRange(guess: Int64, expected: Verdict) throws {
        var round = try Round(number: 1, range: GuessRange(-50, 50), secret: -7)
        #expect(round.judge(guess: guess, by: bob) == expected)
    }

    @Test("After a win every guess is 'round already won' and nothing more counts")
    func roundOver() throws {
        var round = try Round(number: 3, range: .standard, secret: 42)
        #expect(round.judge(guess: 10, by: bob) == .tooLow)
        #expect(round.judge(guess: 42, by: carol) == .correct)
        #expect(round.isWon)
        #expect(round.winner == carol)
        #expect(round.winningGuessCount == 1)
        #expect(round.judge(guess: 42, by: bob) == .roundOver)
        #expect(round.judge(guess: 500, by: bob) == .roundOver)
        #expect(round.winner == carol, "a late correct guess does not steal the win")
        #expect(round.guesses(by: bob.id) == 1)
        #expect(round.countedGuesses == 2)
        #expect(round.judgedCount == 4)
        #expect(Verdict.roundOver.description == "round already won")
    }

    @Test("Guesses are counted per player; out-of-range guesses are judged but neither counted nor kept in the history")
    func counting() throws {
        var round = try Round(number: 1, range: .standard, secret: 42)
        for guess: Int64 in [10, 20, 500, 30] { _ = round.judge(guess: guess, by: bob) }
        _ = round.judge(guess: 90, by: carol)
        #expect(round.guesses(by: bob.id) == 3)
        #expect(round.guesses(by: carol.id) == 1)
        #expect(round.guesses(by: UUID()) == 0)
        #expect(round.history.map(\.guess) == [10, 20, 30, 90], "the out-of-range guess is the guesser's alone")
        #expect(round.judgedCount == 4)
        #expect(round.history[0].displayText == "bob guessed 10: too low")
        _ = round.judge(guess: 42, by: bob)
        #expect(round.winningGuessCount == 4)
    }

    @Test("Out-of-range verdicts say the range")
    func outOfRangeText() {
        #expect(Verdict.outOfRange(.standard).description == "out of range 1–100")
        #expect(Verdict.tooLow.hint.contains("greater"))
        #expect(Verdict.tooHigh.hint.contains("smaller"))
    }

    @Test("The history keeps the most recent judgements within its limit")
    func boundedHistory() throws {
        var round = try Round(number: 1, range: try GuessRange(1, 1_000_000), secret: 999_999, historyLimit: 10)
        for guess in 1...55 { _ = round.judge(guess: Int64(guess), by: bob) }
        #expect(round.judgedCount == 55)
        #expect(round.history.count >= 10 && round.history.count < 20)
        #expect(round.history.last?.guess == 55)
        #expect(round.droppedJudgements + round.history.count == 55)
    }

    @Test("A round cannot start with a secret outside its range, and commits to the one it has")
    func secretChecked() throws {
        #expect(throws: GameError.secretOutOfRange(0, .standard)) { try Round(number: 1, range: .standard, secret: 0) }
        let round = try Round(number: 1, range: .standard, secret: 42)
        #expect(round.commitment.verify(secret: 42, salt: round.salt))
    }

    @Test("Secret sources: fixed, custom, and a secure draw that stays in range and varies")
    func secretSources() throws {
        #expect(try SecretSource.fixed(7).secret(in: .standard) == 7)
        #expect(throws: GameError.self) { try SecretSource.fixed(700).secret(in: .standard) }
        #expect(try SecretSource.custom { $0.upperBound }.secret(in: .standard) == 100)
        let small = try GuessRange(-2, 2)
        var seen = Set<Int64>()
        for _ in 0..<500 {
            let secret = try SecretSource.secureRandom.secret(in: small)
            #expect(small.contains(secret))
            seen.insert(secret)
        }
        #expect(seen == [-2, -1, 0, 1, 2], "500 draws from 5 numbers reach them all")
        let wide = try GuessRange(-GuessRange.maximumMagnitude, GuessRange.maximumMagnitude)
        #expect(wide.contains(try SecretSource.secureRandom.secret(in: wide)))
    }
}
