import Foundation
@testable import GuessnumGame
import Multipeer
import Testing

/// Guess-the-number run by the room layer speaks the wire that ``WirePinTests`` pins: what its
/// codec writes decodes to the pinned messages, byte for byte once keys are sorted.
@Suite("Guess-the-number's wire from the room layer", .timeLimit(.minutes(1)))
struct GuessCodecTests {
    let alice = WirePinTests.alice, bob = WirePinTests.bob, salt = WirePinTests.salt

    func sorted<Message: Codable>(_ type: Message.Type, _ payload: Data) throws -> String {
        try WirePinTests().json(JSONDecoder().decode(type, from: payload))
    }

    @Test("A guess is written as JSONEncoder writes GuessMessage, byte for byte, and read back, at Int64's edges too")
    func guessBytes() throws {
        for guess: Int64 in [0, 1, 42, -7, 100_000, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
            let written = try GuessCodec.encode(move: guess)
            #expect(written == (try JSONEncoder().encode(GuessMessage(guess: guess))), "\(guess)")
            #expect(try GuessCodec.decodeMove(from: written) == guess)
        }
    }

    @Test("A guess, a verdict, an error, a tick's batch and a replay, as pinned")
    func broadcasts() throws {
        #expect(try sorted(GuessMessage.self, GuessCodec.encode(move: 42)) == #"{"guess":42}"#)
        #expect(try GuessCodec.decodeMove(from: Data(#"{"guess":42}"#.utf8)) == 42)
        let range = try GuessRange(1, 100)
        let commitment = Commitment(secret: 42, salt: salt)
        let judged = JudgedGuess(sequence: 0, round: 1, judgement: Judgement(player: bob, guess: 50, verdict: .tooHigh))
        let reply = try GuessCodec.encode(.reply(.verdict(judged), sequence: 3))
        #expect(reply.type == "guessnum.v1.verdict")
        #expect(try sorted(JudgedGuess.self, reply.payload) == PinnedWire.verdict, "numbered as its broadcast copy")
        let error = GameError.guessOutOfRange(500, range: range)
        let refusal = try GuessCodec.encode(.refused(MoveRefusal(error.code.rawValue, error.message)))
        #expect(refusal.type == "guessnum.v1.error")
        #expect(try sorted(GameErrorMessage.self, refusal.payload) == PinnedWire.error)

        let items: [RoomItem<GuessRules>] = [
            .game(sequence: 3, event: .verdict(judged)),
            .chat(RelayedChat(sequence: 4, from: alice, text: "hello")),
            .joined(PlayerJoined(sequence: 5, player: bob, playerCount: 1)),
            .left(PlayerLeft(sequence: 6, player: bob, playerCount: 0, removedByHost: true)),
            .away(PlayerAway(sequence: 7, player: bob, holdSeconds: 60)),
            .back(PlayerBack(sequence: 8, player: bob)),
            .renamed(PlayerRenamed(sequence: 9, player: bob, previousName: "robert")),
            .game(sequence: 10, event: .roundStarted(RoundStarted(sequence: 0, round: 2, range: range, commitment: commitment))),
            .game(sequence: 11, event: .roundWon(RoundWon(
                sequence: 0, round: 2, range: range, commitment: commitment, winner: bob, secret: 42, salt: salt, winningGuesses: 3,
                totalGuesses: 5))),
            .game(sequence: 12, event: .scoreboard(ScoreboardUpdate(
                sequence: 0, entries: [Scoreboard.Entry(player: bob, wins: 1, guesses: 3, bestRound: 3)], totalEntries: 1))),
        ]
        let batch = RoomBatch(items: items, omittedEvents: 2, playerCount: 7)
        let encoded = try GuessCodec.encode(.batch(batch))
        #expect(encoded.type == "guessnum.v1.history")
        #expect(try sorted(HistoryBatch.self, encoded.payload) == PinnedWire.history)
        let split = BatchPayloads.split(try items.map(GuessCodec.encode(item:)), payloadLimit: 65_000) { GuessCodec.batchClosing(of: batch, first: $0) }
        #expect(split.count == 1)
        #expect(try sorted(HistoryBatch.self, split[0]) == PinnedWire.history, "as the host splits it")
        guard case .batch(let decoded)? = try GuessCodec.decode(type: encoded.type, payload: encoded.payload) else {
            Issue.record("the batch did not decode"); return
        }
        #expect(decoded.items.map(\.sequence) == items.map(\.sequence) && decoded.omittedEvents == 2 && decoded.playerCount == 7)

        let replay = try GuessCodec.encode(.replay(after: 2, items: [items[1]]))
        #expect(replay.type == "guessnum.v1.replay")
        #expect(try sorted(ReplayMessage.self, replay.payload) == PinnedWire.replay)
    }

    @Test("A welcome, as pinned, and read back as the room's")
    func welcome() throws {
        let range = try GuessRange(1, 100)
        let view = GuessView(
            round: 2, range: range, commitment: Commitment(secret: 42, salt: salt), history: [Judgement(player: bob, guess: 50, verdict: .tooHigh)],
            earlierJudgements: 0, reveal: nil, hostChoseSecret: false, scoreboard: [Scoreboard.Entry(player: bob, wins: 1, guesses: 3, bestRound: 3)])
        let welcome = RoomWelcome<GuessRules>(
            you: bob, round: 2, lastSequence: 12, players: [bob], scores: [RoomScores.Entry(player: bob, wins: 1)], seatHoldSeconds: 60, view: view)
        let (type, payload) = try GuessCodec.encode(welcome, within: 65_000)
        #expect(type == "guessnum.v1.welcome")
        #expect(try sorted(WelcomeMessage.self, payload) == PinnedWire.welcome)
        guard case .welcome(let read)? = try GuessCodec.decode(type: type, payload: payload) else { Issue.record("no welcome"); return }
        #expect(read == welcome)
    }

    @Test("The welcomes of one tick carry the same state, each with its own player")
    func welcomesOfATick() throws {
        let view = GuessView(
            round: 1, range: .standard, commitment: Commitment(secret: 42, salt: salt), history: [], earlierJudgements: 0, reveal: nil,
            hostChoseSecret: false, scoreboard: [])
        let welcomes = [alice, bob].map { RoomWelcome<GuessRules>(you: $0, round: 1, lastSequence: 7, players: [alice, bob], scores: [], seatHoldSeconds: 60, view: view) }
        let encoded = try GuessCodec.encode(welcomes: welcomes, within: 65_000)
        let decoded = try encoded.map { try JSONDecoder().decode(WelcomeMessage.self, from: $0.payload) }
        #expect(encoded.map(\.type) == ["guessnum.v1.welcome", "guessnum.v1.welcome"])
        #expect(decoded.map(\.you) == [alice, bob])
        #expect(decoded[0].game == decoded[1].game && decoded[0].game.lastSequence == 7 && decoded[0].game.playerCount == 2)
    }
}
