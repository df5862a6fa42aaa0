import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Rooms
import Testing

/// Property: every message type decodes to itself from its own encoding, including the optional
/// facts that are sent only when true, for seeded random values.
@Suite("Every game message round-trips", .timeLimit(.minutes(1)))
struct MessageRoundTripTests {
    func roundTrips<Message: GameMessage & Equatable>(_ message: Message) throws -> Bool {
        try JSONDecoder().decode(Message.self, from: JSONEncoder().encode(message)) == message
    }

    @Test("Random values of every message type decode to themselves", arguments: 0..<50)
    func randomMessages(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let player = PlayerRef(id: UUID(), name: random.word())
        let range = try GuessRange(-Int64(random.next() % 1000), Int64(random.next() % 1000) + 1)
        let guess = Int64(bitPattern: random.next())
        let verdicts: [Verdict] = [.tooLow, .tooHigh, .correct, .roundOver, .outOfRange(range)]
        let judged = JudgedGuess(sequence: random.next() % 1000, round: Int(random.next() % 9) + 1,
                                 judgement: Judgement(player: player, guess: guess, verdict: verdicts[Int(random.next() % 5)]))
        let flag = random.next() % 2 == 0
        let started = RoundStarted(sequence: 7, round: 2, range: range, commitment: Commitment(secret: 1, salt: .random()), hostChoseSecret: flag)
        let left = PlayerLeft(sequence: 8, player: player, playerCount: Int(random.next() % 50), removedByHost: flag)
        let won = RoundWon(sequence: 9, round: 2, range: range, commitment: started.commitment, winner: flag ? player : nil,
                           secret: 1, salt: .random(), winningGuesses: flag ? 3 : nil, totalGuesses: 4, hostChoseSecret: flag)
        #expect(try roundTrips(GuessMessage(guess: guess)))
        #expect(try roundTrips(ChatMessage(text: random.word())))
        #expect(try roundTrips(RenameRequest(name: random.word())))
        #expect(try roundTrips(SyncRequest()))
        #expect(try roundTrips(judged))
        #expect(try roundTrips(GameErrorMessage(.guessesThrottled(perSecond: 20))))
        #expect(try roundTrips(HistoryBatch(items: [
            .verdict(judged), .chat(RelayedChat(sequence: 5, from: player, text: random.word())),
            .joined(PlayerJoined(sequence: 6, player: player, playerCount: 1)), .left(left),
            .renamed(PlayerRenamed(sequence: 10, player: player, previousName: random.word())),
            .roundStarted(started), .roundWon(won),
        ], omittedGuesses: Int(random.next() % 3))))
        let state = GameState(round: 2, range: range, commitment: started.commitment, history: [judged.judgement], earlierJudgements: 0,
                              lastSequence: 10, players: [player], playerCount: 1, scoreboard: [], reveal: flag ? won : nil, hostChoseSecret: flag)
        #expect(try roundTrips(WelcomeMessage(you: player, game: state)))
    }

    @Test("The optional facts are absent from the bytes when false, so older peers see what they always saw")
    func optionalFactsAbsentWhenFalse() throws {
        let player = PlayerRef(id: UUID(), name: "bob")
        let left = String(decoding: try JSONEncoder().encode(PlayerLeft(sequence: 1, player: player, playerCount: 0)), as: UTF8.self)
        #expect(!left.contains("removedByHost"))
        let removed = String(decoding: try JSONEncoder().encode(PlayerLeft(sequence: 1, player: player, playerCount: 0, removedByHost: true)), as: UTF8.self)
        #expect(removed.contains("\"removedByHost\":true"))
        let started = String(decoding: try JSONEncoder().encode(RoundStarted(sequence: 1, round: 1, range: .standard, commitment: Commitment(secret: 5, salt: .random()))), as: UTF8.self)
        #expect(!started.contains("hostChoseSecret"))
    }
}

extension SplitMix64 {
    /// A short word of letters, accents, a space and an emoji.
    mutating func word() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzäöü ✨")
        return String((0..<Int(next() % 12 + 1)).map { _ in letters[Int(next() % UInt64(letters.count))] })
    }
}
