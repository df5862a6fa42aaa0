import Foundation
@testable import GuessnumGame
import Rooms
import Testing

/// Guess-the-number at a player's screen: what a typed line is, what each event reads, and the
/// fairness check each reveal gets from what the player saw.
@Suite("Guess-the-number's presenter", .timeLimit(.minutes(1)))
struct GuessPresenterTests {
    let bob = PlayerRef(id: UUID(), name: "bob")
    let carol = PlayerRef(id: UUID(), name: "carol")
    let salt = Salt.random()

    func welcome(secret: Int64 = 42, history: [Judgement] = []) -> RoomWelcome<GuessRules> {
        let view = GuessView(
            round: 1, range: .standard, commitment: Commitment(secret: secret, salt: salt), history: history, earlierJudgements: 0, reveal: nil,
            hostChoseSecret: false, scoreboard: [])
        return RoomWelcome(you: bob, round: 1, lastSequence: 5, players: [bob, carol], scores: [], seatHoldSeconds: nil, view: view)
    }

    func verdict(_ player: PlayerRef, _ guess: Int64, _ verdict: Verdict) -> GuessEvent {
        .verdict(JudgedGuess(sequence: 6, round: 1, judgement: Judgement(player: player, guess: guess, verdict: verdict)))
    }

    func won(secret: Int64, by winner: PlayerRef) -> GuessEvent {
        .roundWon(RoundWon(
            sequence: 9, round: 1, range: .standard, commitment: Commitment(secret: 42, salt: salt), winner: winner, secret: secret, salt: salt,
            winningGuesses: 2, totalGuesses: 3))
    }

    @Test("A whole number is a guess, a number beyond 64 bits is answered at once, anything else is chat")
    func typedLines() {
        var presenter = GuessPresenter()
        guard case .play(50) = presenter.input("50", in: nil) else { Issue.record("50 is a guess"); return }
        guard case .chat = presenter.input("hello 50", in: nil) else { Issue.record("words are chat"); return }
        guard case .answer(let sentence) = presenter.input("99999999999999999999999", in: nil) else { Issue.record("too large"); return }
        #expect(sentence.contains("is out of range"))
    }

    @Test("The reader's own guesses read 'you', others' by name; each line names its event for --json")
    func verdicts() {
        var presenter = GuessPresenter()
        let reader = Reader(me: bob.id)
        _ = presenter.lines(forWelcome: welcome(), to: reader)
        let mine = presenter.lines(for: verdict(bob, 50, .tooHigh), to: reader)
        #expect(mine.map(\.text.plain) == ["you guessed 50: too high"])
        #expect(mine.first?.record?.name == "verdict")
        let carols = presenter.lines(for: verdict(carol, 10, .tooLow), to: reader)
        #expect(carols.map(\.text.plain) == ["carol guessed 10: too low"])
        let name = carols.first?.text.runs.first
        #expect(name?.text == "carol" && name?.weight == .strong, "a name stands out")
    }

    @Test("A reveal that matches the commitment and every verdict seen reads fair; one that does not, NOT fair")
    func fairness() {
        var honest = GuessPresenter()
        _ = honest.lines(forWelcome: welcome(), to: .anyone)
        _ = honest.lines(for: verdict(carol, 10, .tooLow), to: .anyone)
        let fair = honest.lines(for: won(secret: 42, by: carol), to: .anyone)
        #expect(fair.map { $0.record?.name } == ["roundWon", "fairness"])
        #expect(fair.last?.text.plain.contains("Round 1 was fair") == true, "\(fair.map(\.text.plain))")
        #expect(honest.fairnessChecks[1]?.isHonest == true)

        var cheated = GuessPresenter()
        _ = cheated.lines(forWelcome: welcome(), to: .anyone)
        _ = cheated.lines(for: verdict(carol, 50, .tooHigh), to: .anyone)  // says 50 is too high: the secret must be below it
        let unfair = cheated.lines(for: won(secret: 60, by: carol), to: .anyone)
        #expect(unfair.last?.text.plain.contains("Round 1 was NOT fair") == true, "\(unfair.map(\.text.plain))")
        #expect(unfair.last?.text.runs.allSatisfy { $0.colour == .alarm } == true)
    }

    @Test("/score, /history and the /players column come from what the player saw")
    func queries() {
        var presenter = GuessPresenter()
        _ = presenter.lines(forWelcome: welcome(history: [Judgement(player: carol, guess: 10, verdict: .tooLow)]), to: .anyone)
        _ = presenter.lines(for: verdict(carol, 20, .tooLow), to: .anyone)
        _ = presenter.lines(for: verdict(bob, 30, .tooLow), to: .anyone)
        #expect(presenter.playerColumn(for: carol) == "2")
        #expect(presenter.playerColumn(for: bob) == "1")
        #expect(GuessPresenter.playerColumn == "guesses this round")
        let history = presenter.history(of: [], to: Reader(me: bob.id))
        #expect(history.map(\.text.plain) == ["carol guessed 10: too low\ncarol guessed 20: too low\nbob guessed 30: too low"])
        presenter.renamed(PlayerRef(id: bob.id, name: "bobby"))
        let dave = PlayerRef(id: UUID(), name: "dave")  // in the room, no guess yet
        let scores = presenter.scores(of: [bob, carol, dave], to: .anyone)?.lines.map(\.plain)
        #expect(scores?.contains { $0.hasSuffix(". bobby: 0 wins, 1 guess") } == true, "\(scores ?? [])")
        #expect(scores?.last == "3. dave: 0 wins, 0 guesses", "a player with no guess is listed too (issue 44): \(scores ?? [])")
    }
}
