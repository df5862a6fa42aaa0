import Foundation
@testable import GuessnumGame
import Testing

@Suite("The guest's view of the game", .timeLimit(.minutes(2)))
struct GuestViewTests {
    let me = PlayerRef(id: UUID(), name: "bob")
    let carol = PlayerRef(id: UUID(), name: "carol")
    let salt = Salt.random()
    var commitment: Commitment { Commitment(secret: 42, salt: salt) }

    func welcome(lastSequence: UInt64 = 10, history: [Judgement] = []) -> WelcomeMessage {
        WelcomeMessage(you: me, game: GameState(
            round: 1, range: .standard, commitment: commitment, history: history, earlierJudgements: 0,
            lastSequence: lastSequence, players: [carol], playerCount: 2, scoreboard: [], reveal: nil))
    }

    func line(_ sequence: UInt64, _ player: PlayerRef, _ guess: Int64, _ verdict: Verdict, round: Int = 1) -> JudgedGuess {
        JudgedGuess(sequence: sequence, round: round, judgement: Judgement(player: player, guess: guess, verdict: verdict))
    }

    func verdicts(_ events: [GuestGameEvent]) -> [UInt64] {
        events.compactMap { if case .item(.verdict(let line)) = $0 { line.sequence } else { nil } }
    }

    @Test("When a round starts, the last one is kept as the previous round, with its guesses, for /history")
    func previousRound() {
        var view = GuestView()
        _ = view.apply(welcome(lastSequence: 10, history: [Judgement(player: carol, guess: 10, verdict: .tooLow)]))
        #expect(view.previousRound == nil)
        _ = view.apply(HistoryBatch(items: [.verdict(line(11, carol, 20, .tooLow))]))
        _ = view.apply(HistoryBatch(items: [.roundStarted(RoundStarted(sequence: 12, round: 2, range: .standard, commitment: Commitment(secret: 7, salt: .random())))]))
        #expect(view.history.isEmpty)
        #expect(view.previousRound?.number == 1)
        #expect(view.previousRound?.history.map(\.guess) == [10, 20])
    }

    @Test("Broadcasts before the welcome are ignored; after it, only items newer than it count")
    func sequencing() {
        var view = GuestView()
        #expect(view.apply(HistoryBatch(items: [.verdict(line(3, carol, 10, .tooLow))])).isEmpty)
        _ = view.apply(welcome(lastSequence: 10, history: [Judgement(player: carol, guess: 10, verdict: .tooLow)]))
        #expect(view.players[carol.id] == carol)
        #expect(view.playerCount == 2)
        let events = view.apply(HistoryBatch(items: [.verdict(line(9, carol, 10, .tooLow)), .verdict(line(11, carol, 20, .tooLow))]))
        #expect(verdicts(events) == [11])
        #expect(view.history.map(\.guess) == [10, 20])
    }

    @Test("A host that numbers up to the last UInt64 does not stop the guest")
    func lastSequenceNumber() {
        var view = GuestView()
        _ = view.apply(welcome(lastSequence: .max))
        _ = view.applyOwn(line(.max, me, 50, .tooHigh))
        _ = view.apply(HistoryBatch(items: [.verdict(line(.max, carol, 20, .tooLow))]))
        #expect(view.lastSequence == .max)
    }

    @Test("The guesser's own verdict is posted once: at once when nothing precedes it, not again when the broadcast copy arrives")
    func ownVerdictOnce() {
        var view = GuestView()
        _ = view.apply(welcome())
        let own = line(11, me, 50, .tooHigh)
        #expect(verdicts(view.applyOwn(own)) == [11], "the next item in the host's order is shown at once")
        #expect(view.lastVerdict == own)
        let events = view.apply(HistoryBatch(items: [.verdict(own), .verdict(line(12, carol, 10, .tooLow))]))
        #expect(verdicts(events) == [12])
        #expect(view.history.map(\.guess) == [50, 10], "the history has it, in broadcast order")
        #expect(verdicts(view.applyOwn(line(12, me, 1, .tooLow))).isEmpty, "a copy that comes after the broadcast is not posted again")
    }

    @Test("An own verdict that overtook earlier broadcast items waits for them: the screen follows the host's order")
    func ownVerdictInHostOrder() {
        var view = GuestView()
        _ = view.apply(welcome())
        let mine = line(12, me, 42, .roundOver)
        #expect(verdicts(view.applyOwn(mine)).isEmpty, "item 11 (bob's winning guess) has not arrived yet")
        let events = view.apply(HistoryBatch(items: [.verdict(line(11, carol, 42, .correct)), .verdict(mine)]))
        #expect(verdicts(events) == [11, 12], "carol's win first, then the own verdict, once each")

        var other = GuestView()
        _ = other.apply(welcome())
        _ = other.applyOwn(line(13, me, 7, .tooLow))
        let early = other.apply(HistoryBatch(items: [.verdict(line(11, carol, 1, .tooLow))]))
        #expect(verdicts(early) == [11], "still waiting for item 12")
        let late = other.apply(HistoryBatch(items: [.chat(RelayedChat(sequence: 12, from: carol, text: "hi")), .verdict(line(14, carol, 2, .tooLow))]))
        #expect(verdicts(late) == [13, 14], "the own verdict is shown before what came after it, even if its copy was left out")

        var busy = GuestView()
        _ = busy.apply(welcome())
        _ = busy.applyOwn(line(15, me, 9, .tooLow))
        var batch = HistoryBatch(items: [.verdict(line(11, carol, 3, .tooLow))])
        batch.omittedGuesses = 3
        #expect(verdicts(busy.apply(batch)) == [11, 15], "a busy tick that left lines out releases it")
    }

    @Test("After a drop, broadcasts wait for what was missed: a replay, then them; a fresh welcome, then those newer; past the limit, taken in as they are")
    func heldAfterADrop() {
        var view = GuestView()
        _ = view.apply(welcome(lastSequence: 10))
        view.holdBatches()
        #expect(verdicts(view.apply(HistoryBatch(items: [.verdict(line(14, carol, 40, .tooLow))]))).isEmpty)
        let items: [HistoryItem] = (11...14).map { .verdict(line(UInt64($0), carol, Int64($0), .tooLow)) }
        let events = view.apply(ReplayMessage(after: 10, items: items))
        #expect(verdicts(events) == [11, 12, 13, 14], "the replay in order, then nothing again")
        #expect(view.lastSequence == 14)
        #expect(verdicts(view.apply(HistoryBatch(items: [.verdict(line(15, carol, 1, .tooLow))]))) == [15], "no longer held")

        view.holdBatches()
        _ = view.apply(HistoryBatch(items: [.verdict(line(20, carol, 5, .tooLow))]))
        _ = view.apply(HistoryBatch(items: [.verdict(line(21, carol, 6, .tooLow))]))
        #expect(verdicts(view.apply(welcome(lastSequence: 20))) == [21], "after a fresh welcome, only what is newer")

        view.holdBatches()
        for index in 0..<GuestView.heldBatchLimit {
            #expect(view.apply(HistoryBatch(items: [.verdict(line(UInt64(22 + index), carol, 7, .tooLow))])).isEmpty)
        }
        let overflow = view.apply(HistoryBatch(items: [.verdict(line(UInt64(22 + GuestView.heldBatchLimit), carol, 7, .tooLow))]))
        #expect(verdicts(overflow).count == GuestView.heldBatchLimit + 1, "memory stays bounded: one more and all are taken in")
        #expect(view.heldBatches == nil)
    }

    @Test("A replay counts what the player will read: not score updates, nor the player's own chat, absence and return")
    func replayCountsWhatIsShown() {
        var view = GuestView()
        _ = view.apply(welcome(lastSequence: 10))
        let events = view.apply(ReplayMessage(after: 10, items: [
            .away(PlayerAway(sequence: 11, player: me, holdSeconds: 60)),
            .chat(RelayedChat(sequence: 12, from: me, text: "anyone?")),
            .chat(RelayedChat(sequence: 13, from: carol, text: "hello bob")),
            .scoreboard(ScoreboardUpdate(sequence: 14, entries: [], totalEntries: 0)),
            .back(PlayerBack(sequence: 15, player: me)),
            .verdict(line(16, carol, 30, .tooLow)),
        ]))
        guard case .caughtUp(let caughtUp)? = events.first else {
            Issue.record("the replay starts with its count: \(events)")
            return
        }
        #expect(caughtUp.missed == 2, "carol's chat line and guess")
        #expect(events.filter { $0.isNews(to: me.id) }.count == 2)
    }

    @Test("The scoreboard is live: every counted guess, win and rename since the host's last word")
    func liveScoreboard() {
        var view = GuestView()
        _ = view.apply(welcome())
        _ = view.apply(HistoryBatch(items: [
            .verdict(line(11, carol, 10, .tooLow)), .verdict(line(12, carol, 500, .outOfRange(.standard))),
            .verdict(line(13, carol, 20, .tooHigh)),
        ]))
        #expect(view.scoreboard.map { "\($0.player.name) \($0.wins) \($0.guesses)" } == ["carol 0 2"], "out-of-range guesses do not count")
        let dave = PlayerRef(id: carol.id, name: "dave")
        _ = view.apply(HistoryBatch(items: [.renamed(PlayerRenamed(sequence: 14, player: dave, previousName: "carol"))]))
        _ = view.applyOwn(line(15, me, 15, .correct))
        #expect(view.scoreboard.count == 2)
        #expect(view.scoreboard.first { $0.player.id == carol.id }?.player.name == "dave", "shown under the new name")
        #expect(view.scoreboard.first { $0.player.id == me.id }?.guesses == 1, "the own guess counts at once")
    }

    @Test("A reveal is checked: honest when it matches, flagged when a verdict lied")
    func fairness() {
        var view = GuestView()
        _ = view.apply(welcome())
        _ = view.apply(HistoryBatch(items: [.verdict(line(11, carol, 60, .tooLow))]))
        let reveal = RoundWon(sequence: 12, round: 1, range: .standard, commitment: commitment, winner: carol, secret: 42, salt: salt, winningGuesses: 2, totalGuesses: 2)
        let events = view.apply(HistoryBatch(items: [.roundWon(reveal)]))
        #expect(view.fairnessChecks[1]?.isHonest == false)
        #expect(view.fairnessChecks[1]?.problems.first?.contains("carol's guess 60 was called too low") == true)
        #expect(events.contains { if case .fairness = $0 { true } else { false } })
        #expect(view.reveal == reveal)
    }

    @Test("A new round clears the history and the reveal, and is audited against its own commitment")
    func newRound() {
        var view = GuestView()
        _ = view.apply(welcome(history: [Judgement(player: carol, guess: 10, verdict: .tooLow)]))
        let next = Salt.random()
        _ = view.apply(HistoryBatch(items: [.roundStarted(RoundStarted(sequence: 11, round: 2, range: .standard, commitment: Commitment(secret: 7, salt: next)))]))
        #expect(view.round == 2)
        #expect(view.history.isEmpty)
        _ = view.apply(HistoryBatch(items: [
            .verdict(line(12, carol, 5, .tooLow, round: 2)),
            .verdict(line(13, carol, 7, .correct, round: 2)),
            .roundWon(RoundWon(sequence: 14, round: 2, range: .standard, commitment: Commitment(secret: 7, salt: next), winner: carol, secret: 7, salt: next, winningGuesses: 2, totalGuesses: 2)),
        ]))
        #expect(view.fairnessChecks[2]?.isHonest == true)
    }

    @Test("Omitted guesses are counted and reported")
    func omitted() {
        var view = GuestView()
        _ = view.apply(welcome())
        let events = view.apply(HistoryBatch(items: [], omittedGuesses: 12))
        #expect(view.omittedGuesses == 12)
        #expect(events.contains { if case .omitted(let omitted) = $0 { omitted.count == 12 } else { false } })
    }

    @Test("Lines typed by a guest: whole numbers are guesses, blank is nothing, anything else is chat", arguments: [
        ("50", Submission.guess(50)), (" -7 ", .guess(-7)), ("+3", .guess(3)),
        ("99999999999999999999", .tooLarge("99999999999999999999")), (" -99999999999999999999", .tooLarge("-99999999999999999999")),
        ("9223372036854775807", .guess(.max)), ("-9223372036854775808", .guess(.min)),
        ("", .ignored), ("   \t", .ignored),
        ("fifty", .chat("fifty")), ("50!", .chat("50!")), ("5e2", .chat("5e2")), ("1,000", .chat("1,000")),
        ("-", .chat("-")), ("is it 42?", .chat("is it 42?")),
    ])
    func submissions(line: String, expected: Submission) {
        #expect(Submission(line: line) == expected)
    }
}
