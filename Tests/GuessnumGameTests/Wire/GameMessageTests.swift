import Foundation
import GuessnumGame
import Multipeer
import Testing

@Suite("Wire messages", .timeLimit(.minutes(2)))
struct GameMessageTests {
    let bob = PlayerRef(id: UUID(), name: "bob")
    let salt = Salt.random()

    @Test("Every message has an explicit, versioned and distinct type string")
    func typeStrings() {
        let types: [String] = [
            GuessMessage.messageType, ChatMessage.messageType, RenameRequest.messageType, SyncRequest.messageType,
            WelcomeMessage.messageType, JudgedGuess.messageType, RelayedChat.messageType, PlayerJoined.messageType,
            PlayerLeft.messageType, PlayerRenamed.messageType, RoundWon.messageType, RoundStarted.messageType,
            ScoreboardUpdate.messageType, GameErrorMessage.messageType, HistoryBatch.messageType,
        ]
        #expect(Set(types).count == types.count)
        #expect(types.allSatisfy { $0.hasPrefix("guessnum.v1.") })
        #expect(GuessMessage.messageType == "guessnum.v1.guess")
        #expect(JudgedGuess.messageType == "guessnum.v1.verdict")
        #expect(HistoryBatch.messageType == "guessnum.v1.history")
    }

    @Test("Verdicts are encoded by kind, with the range when out of range")
    func verdictJSON() throws {
        #expect(String(decoding: try jsonEncoder().encode(Verdict.tooHigh), as: UTF8.self) == #"{"kind":"tooHigh"}"#)
        #expect(String(decoding: try jsonEncoder().encode(Verdict.outOfRange(.standard)), as: UTF8.self) == #"{"kind":"outOfRange","range":{"lower":1,"upper":100}}"#)
        for verdict in [Verdict.tooLow, .tooHigh, .correct, .roundOver, .outOfRange(try GuessRange(-5, 5))] {
            #expect(try roundTrip(verdict) == verdict)
        }
        #expect(throws: (any Error).self) { try jsonDecoder().decode(Verdict.self, from: Data(#"{"kind":"maybe"}"#.utf8)) }
    }

    @Test("A batch carries every kind of item in order, each under its own type string")
    func batchRoundTrip() throws {
        let commitment = Commitment(secret: 42, salt: salt)
        let items: [HistoryItem] = [
            .verdict(JudgedGuess(sequence: 1, round: 1, judgement: Judgement(player: bob, guess: 50, verdict: .tooHigh))),
            .chat(RelayedChat(sequence: 2, from: bob, text: "hi")),
            .joined(PlayerJoined(sequence: 3, player: bob, playerCount: 1)),
            .renamed(PlayerRenamed(sequence: 4, player: bob, previousName: "robert")),
            .roundWon(RoundWon(sequence: 5, round: 1, range: .standard, commitment: commitment, winner: bob, secret: 42, salt: salt, winningGuesses: 2, totalGuesses: 9)),
            .scoreboard(ScoreboardUpdate(sequence: 6, entries: [Scoreboard.Entry(player: bob, wins: 1, guesses: 2, bestRound: 2)], totalEntries: 1)),
            .roundStarted(RoundStarted(sequence: 7, round: 2, range: .standard, commitment: commitment)),
            .left(PlayerLeft(sequence: 8, player: bob, playerCount: 0)),
        ]
        let batch = HistoryBatch(items: items, omittedGuesses: 3)
        #expect(try roundTrip(batch) == batch)
        let text = String(decoding: try jsonEncoder().encode(batch), as: UTF8.self)
        #expect(text.contains(#"{"body":{"from""#))
        #expect(text.contains(#""type":"guessnum.v1.chat-line""#))
        #expect(items.compactMap(\.sequence) == Array(1...8))
    }

    @Test("An item of a type from a newer host is kept as unknown, and the rest of the batch still reads")
    func unknownItem() throws {
        let json = #"{"omittedGuesses":0,"items":[{"type":"guessnum.v1.fireworks","body":{"colour":"red"}},{"type":"guessnum.v1.chat-line","body":{"sequence":4,"from":{"id":"\#(bob.id.uuidString)","name":"bob"},"text":"hi"}}]}"#
        let batch = try jsonDecoder().decode(HistoryBatch.self, from: Data(json.utf8))
        #expect(batch.items.count == 2)
        #expect(batch.items[0] == .unknown(type: "guessnum.v1.fireworks"))
        #expect(batch.items[0].sequence == nil)
        #expect(batch.items[1].sequence == 4)
    }

    @Test("Text from the network is shown with control characters replaced")
    func sanitized() {
        let evil = PlayerRef(id: UUID(), name: "eve\u{1B}[2J\u{202E}")
        #expect(evil.displayText == "eve\u{FFFD}[2J\u{FFFD}")
        let line = RelayedChat(sequence: 1, from: evil, text: "hi\nthere\u{7}")
        #expect(line.displayText == "eve\u{FFFD}[2J\u{FFFD}: hi\u{FFFD}there\u{FFFD}")
        #expect(line.text == "hi\nthere\u{7}", "the model keeps the raw text")
        let guess = JudgedGuess(sequence: 1, round: 1, judgement: Judgement(player: bob, guess: 50, verdict: .tooHigh))
        #expect(guess.displayText == "bob guessed 50: too high")
    }

    @Test("Errors travel as a code and a sentence; unknown codes still show their sentence")
    func errors() throws {
        let message = GameErrorMessage(.guessesThrottled(perSecond: 20))
        #expect(message.code == "throttled")
        #expect(message.message.hasPrefix("slow down: at most 20 guesses a second"))
        #expect(try roundTrip(message).error == .guessesThrottled(perSecond: 20))
        let future = try jsonDecoder().decode(GameErrorMessage.self, from: Data(#"{"code":"solarFlare","message":"Too sunny."}"#.utf8))
        #expect(future.error.code == .other)
        #expect(future.error.message == "Too sunny.")
    }

    @Test("A welcome decodes from JSON written by another program")
    func welcomeFromText() throws {
        let commitment = Commitment(secret: 1, salt: salt)
        let json = """
            {"protocolVersion":1,"you":{"id":"\(bob.id.uuidString)","name":"bob (2)"},
             "game":{"round":3,"range":{"lower":-50,"upper":50},"commitment":"\(commitment.hex)",
             "history":[{"player":{"id":"\(bob.id.uuidString)","name":"bob (2)"},"guess":9,"verdict":{"kind":"tooHigh"}}],
             "earlierJudgements":0,"lastSequence":17,"players":[],"playerCount":4,"scoreboard":[]}}
            """
        let welcome = try jsonDecoder().decode(WelcomeMessage.self, from: Data(json.utf8))
        #expect(welcome.you.name == "bob (2)")
        #expect(welcome.game.range == (try GuessRange(-50, 50)))
        #expect(welcome.game.reveal == nil)
        #expect(welcome.game.history.first?.verdict == .tooHigh)
    }
}
