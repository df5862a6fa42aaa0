import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("The host's game as a value", .timeLimit(.minutes(2)))
struct GuessTableTests {
    let alice = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func table(secret: Int64 = 42, configure: (inout GuessHosting) -> Void = { _ in }) throws -> GuessTable {
        var configuration = GuessHosting(secretSource: .fixed(secret))
        configure(&configuration)
        return try GuessTable(configuration: configuration, host: alice, secret: secret)
    }

    @Test("Newcomers are named uniquely, announced, and welcomed in the next flush with the state so far")
    func joining() throws {
        var table = try table()
        let bob = peer("bob")
        let bob2 = peer("bob")
        guard case .joined(let first) = table.join(bob), case .joined(let second) = table.join(bob2) else {
            Issue.record("expected both to join")
            return
        }
        #expect(first.player.name == "bob")
        #expect(second.player.name == "bob (2)")
        #expect(second.playerCount == 2)
        guard case .alreadyPlaying = table.join(bob) else { Issue.record("a second join is no join"); return }
        let flush = table.takeFlush()
        #expect(Set(flush.welcomes.map(\.player.name)) == ["bob", "bob (2)"])
        #expect(flush.state?.lastSequence == 2)
        #expect(flush.state?.playerCount == 2)
        #expect(flush.batch?.items.count == 2)
        let empty = table.takeFlush()
        #expect(empty.welcomes.isEmpty && empty.batch == nil)
    }

    @Test("A guess out of range is answered to the guesser alone: nothing is broadcast, numbered, kept or counted")
    func outOfRangeIsPrivate() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        _ = table.takeFlush()
        let before = table.lastSequence
        guard case .outOfRange(let error) = table.guess(500, from: bob.identity, at: now) else { Issue.record("not answered privately"); return }
        #expect(error.message == "500 is out of range: guess a number from 1 to 100.")
        #expect(table.takeFlush().batch == nil)
        #expect(table.lastSequence == before)
        #expect(table.round.history.isEmpty && table.scoreboard.entry(for: bob.identity) == nil)
    }

    @Test("A full game turns newcomers away")
    func full() throws {
        var table = try table { $0.room.maximumPlayers = 1 }
        _ = table.join(peer("bob"))
        guard case .full = table.join(peer("carol")) else { Issue.record("expected full"); return }
    }

    @Test("A winning guess reveals the round, scores it and ends it; later guesses hear it is over")
    func winning() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        _ = table.takeFlush()
        guard case .judged(let low, nil, nil) = table.guess(10, from: bob.identity, at: now) else { Issue.record("not judged"); return }
        #expect(low.verdict == .tooLow)
        guard case .judged(let line, let won?, let board?) = table.guess(42, from: bob.identity, at: now) else { Issue.record("no win"); return }
        #expect(line.verdict == .correct)
        #expect(won.winner?.name == "bob")
        #expect(won.secret == 42)
        #expect(won.winningGuesses == 2)
        #expect(won.commitment.verify(secret: won.secret, salt: won.salt))
        #expect(board.entries.first?.wins == 1)
        guard case .judged(let late, nil, nil) = table.guess(42, from: bob.identity, at: now) else { Issue.record("not judged"); return }
        #expect(late.verdict == .roundOver)
        let kinds = table.takeFlush().batch?.items.map(\.type)
        #expect(kinds == [JudgedGuess.messageType, JudgedGuess.messageType, RoundWon.messageType, ScoreboardUpdate.messageType, JudgedGuess.messageType])
        #expect(table.gameState().reveal == won, "a newcomer during the pause sees the reveal")
    }

    @Test("A flooding guest's extra guesses are neither judged nor broadcast, and it is told once")
    func throttled() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        var judged = 0
        var warnings: [GameError] = []
        for _ in 0..<50 {
            switch table.guess(7, from: bob.identity, at: now) {
            case .judged: judged += 1
            case .refused(let error): if let error { warnings.append(error) }
            case .outOfRange: Issue.record("7 is in range")
            case .notPlaying: Issue.record("bob is playing")
            }
        }
        #expect(judged == 5)
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.hasPrefix("slow down: at most 20 guesses a second") == true)
        #expect(table.round.judgedCount == 5)
    }

    @Test("Chat lines, renames and welcome requests share one throttle: a burst, then the rate, with one warning")
    func chatThrottled() throws {
        var table = try table()  // 5 lines a second, bursts of 10
        let bob = peer("bob")
        _ = table.join(bob)
        var relayed = 0
        for index in 0..<10 {
            guard case .done = table.chat("line \(index)", from: bob.identity, at: now) else {
                Issue.record("line \(index) of the burst was not relayed")
                continue
            }
            relayed += 1
        }
        #expect(relayed == 10)
        guard case .refused(let warning?) = table.chat("one too many", from: bob.identity, at: now) else {
            Issue.record("the eleventh line was not refused with a warning")
            return
        }
        #expect(warning.code == .throttled)
        #expect(warning.message.hasPrefix("slow down: at most 5 chat lines a second"))
        guard case .refused(nil) = table.rename(bob.identity, to: "robert", at: now + .milliseconds(100)) else {
            Issue.record("a rename in the same second was not refused, silently")
            return
        }
        let welcomeWhileEmpty = table.requestWelcome(for: bob.identity, at: now + .milliseconds(150))
        #expect(!welcomeWhileEmpty, "a welcome request is throttled too")
        // One token comes back every 200 ms.
        guard case .done(let renamed) = table.rename(bob.identity, to: "robert", at: now + .milliseconds(201)) else {
            Issue.record("the rename after a refill was refused")
            return
        }
        #expect(renamed.player.name == "robert")
        guard case .refused(let again) = table.chat("too soon", from: bob.identity, at: now + .milliseconds(250)) else {
            Issue.record("the bucket was not empty again")
            return
        }
        #expect(again == nil, "no second warning within a second")
        let second = now + .milliseconds(1001)
        let refilled = (0..<4).filter { index in
            if case .done = table.chat("refilled \(index)", from: bob.identity, at: second) { true } else { false }
        }
        #expect(refilled.count == 4, "four tokens came back over 750 ms")
        guard case .refused(let later?) = table.chat("flooding again", from: bob.identity, at: second) else {
            Issue.record("no new warning a second after the first")
            return
        }
        #expect(later.code == .throttled)
        let welcomeAfterRefill = table.requestWelcome(for: bob.identity, at: now + .milliseconds(1300))
        #expect(welcomeAfterRefill, "allowed after a refill")
    }

    @Test("Chat: blank lines are ignored, long ones refused, others relayed; strangers are not players")
    func chat() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        guard case .ignored = table.chat("   ", from: bob.identity, at: now) else { Issue.record("blank"); return }
        guard case .refused(let error?) = table.chat(String(repeating: "x", count: 501), from: bob.identity, at: now) else { Issue.record("long"); return }
        #expect(error.code == .chatTooLong)
        guard case .done(let line) = table.chat("hello", from: bob.identity, at: now) else { Issue.record("relay"); return }
        #expect(line.displayText == "bob: hello")
        guard case .notPlaying = table.chat("hi", from: UUID(), at: now) else { Issue.record("stranger"); return }
        #expect(table.hostChat("welcome").from == alice)
    }

    @Test("A replay never reaches back before the player's own join, whatever it asks for")
    func replayStartsAtTheJoin() throws {
        var table = try table()
        let carol = peer("carol")
        let bob = peer("bob")
        _ = table.join(carol)
        _ = table.chat("before bob came", from: carol.identity, at: now)
        _ = table.takeFlush()
        guard case .joined(let joined) = table.join(bob) else { Issue.record("bob joins"); return }
        _ = table.chat("after", from: carol.identity, at: now + .seconds(1))
        _ = table.takeFlush()
        let asked = table.requestWelcome(for: bob.identity, at: now + .seconds(2), after: 0)
        #expect(asked)
        let replay = try #require(table.takeFlush().replays.first?.replay)
        #expect(replay.after == joined.sequence)
        let said = replay.items.compactMap { if case .chat(let line) = $0 { line.text } else { nil } }
        #expect(said == ["after"], "only what came after bob joined: \(replay.items)")
    }

    @Test("Starting a round before anyone won reveals the old one without a winner")
    func abandonedRound() throws {
        var table = try table()
        let (ended, started) = try table.startRound(range: GuessRange(-50, 50), secret: -3, salt: Salt.random())
        #expect(ended?.winner == nil)
        #expect(ended?.secret == 42)
        #expect(ended.map { $0.commitment.verify(secret: $0.secret, salt: $0.salt) } == true)
        #expect(started.round == 2)
        #expect(started.range == (try GuessRange(-50, 50)))
        #expect(table.round.secret == -3)
        #expect(throws: GameError.self) { try table.startRound(range: .standard, secret: 500, salt: Salt.random()) }
        #expect(table.round.number == 2, "a failed start changes nothing")
    }

    @Test("A welcome carries at most the last 200 judgements and says how many came before")
    func boundedWelcome() throws {
        var table = try table(secret: 999_999) { $0.settings.range = try! GuessRange(1, 1_000_000); $0.guessThrottle = Throttle(rate: GuessRules.moveThrottle.rate, burst: 10_000) }
        let bob = peer("bob")
        _ = table.join(bob)
        for guess in 1...500 { _ = table.guess(Int64(guess), from: bob.identity, at: now) }
        let state = table.gameState()
        #expect(state.history.count == 200)
        #expect(state.history.last?.guess == 500)
        #expect(state.earlierJudgements == 300)
    }

    @Test("Welcomes for several newcomers share one encoded state and fit the frame")
    func welcomeEncoding() throws {
        let longName = String(repeating: "w", count: 63)
        let players = (0..<300).map { PlayerRef(id: UUID(), name: longName + "\($0)") }
        let history = (0..<200).map { Judgement(player: players[$0], guess: Int64($0), verdict: .outOfRange(.standard)) }
        let state = GameState(
            round: 1, range: .standard, commitment: Commitment(secret: 1, salt: Salt.random()), history: history, earlierJudgements: 0,
            lastSequence: 999, players: Array(players.prefix(100)), playerCount: 300, scoreboard: [], reveal: nil)
        let payloads = try WelcomeEncoder.encode(state, for: Array(players.prefix(3)), payloadLimit: 20_000)
        #expect(payloads.count == 3)
        for (payload, player) in zip(payloads, players) {
            #expect(payload.count <= 20_000)
            let welcome = try JSONDecoder().decode(WelcomeMessage.self, from: payload)
            #expect(welcome.you == player)
            #expect(welcome.game.lastSequence == 999)
            #expect(welcome.game.history.count + welcome.game.earlierJudgements == 200)
            #expect(welcome.game.history.last?.guess == 199, "the newest judgements are kept")
        }
    }
}
