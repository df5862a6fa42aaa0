import Foundation
import GuessnumGame
import Multipeer
import Testing

/// The guess game's wire, byte for byte (keys sorted): what an older player reads and sends. The
/// room layer's work moves these types between modules and will move the game onto a generic
/// host; an older player must still play a newer host, so a change here is a protocol change,
/// not a refactoring.
@Suite("The guess game's wire, pinned", .timeLimit(.minutes(1)))
struct WirePinTests {
    static let alice = PlayerRef(id: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!, name: "alice")
    static let bob = PlayerRef(id: UUID(uuidString: "0B0B0B0B-1111-4A57-9C1E-2B7D4F6A8E10")!, name: "bob")
    static let salt = Salt(bytes: Array(repeating: 7, count: 32))!

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("Every message type keeps its type string")
    func typeStrings() {
        let types = [
            GuessMessage.messageType, ChatMessage.messageType, RenameRequest.messageType, SyncRequest.messageType,
            WelcomeMessage.messageType, HistoryBatch.messageType, ReplayMessage.messageType, JudgedGuess.messageType,
            GameErrorMessage.messageType, PlayerJoined.messageType, PlayerLeft.messageType, PlayerAway.messageType,
            PlayerBack.messageType, PlayerRenamed.messageType, RelayedChat.messageType, RoundStarted.messageType,
            RoundWon.messageType, ScoreboardUpdate.messageType,
        ]
        #expect(types == [
            "guessnum.v1.guess", "guessnum.v1.chat", "guessnum.v1.rename", "guessnum.v1.sync",
            "guessnum.v1.welcome", "guessnum.v1.history", "guessnum.v1.replay", "guessnum.v1.verdict",
            "guessnum.v1.error", "guessnum.v1.player-joined", "guessnum.v1.player-left", "guessnum.v1.player-away",
            "guessnum.v1.player-back", "guessnum.v1.player-renamed", "guessnum.v1.chat-line", "guessnum.v1.round-started",
            "guessnum.v1.round-won", "guessnum.v1.scoreboard",
        ])
    }

    @Test("What a player sends")
    func requests() throws {
        #expect(try json(GuessMessage(guess: 42)) == #"{"guess":42}"#)
        #expect(try json(ChatMessage(text: "hi")) == #"{"text":"hi"}"#)
        #expect(try json(RenameRequest(name: "bobby")) == #"{"name":"bobby"}"#)
        #expect(try json(SyncRequest(after: 12)) == #"{"after":12}"#)
    }

    @Test("What the host sends: a verdict, an error, a history batch with every item kind, a replay")
    func broadcasts() throws {
        let range = try GuessRange(1, 100)
        let commitment = Commitment(secret: 42, salt: Self.salt)
        let judged = JudgedGuess(sequence: 3, round: 1, judgement: Judgement(player: Self.bob, guess: 50, verdict: .tooHigh))
        #expect(try json(judged) == PinnedWire.verdict)
        #expect(try json(GameErrorMessage(.guessOutOfRange(500, range: range))) == PinnedWire.error)
        let batch = HistoryBatch(items: [
            .verdict(judged),
            .chat(RelayedChat(sequence: 4, from: Self.alice, text: "hello")),
            .joined(PlayerJoined(sequence: 5, player: Self.bob, playerCount: 1)),
            .left(PlayerLeft(sequence: 6, player: Self.bob, playerCount: 0, removedByHost: true)),
            .away(PlayerAway(sequence: 7, player: Self.bob, holdSeconds: 60)),
            .back(PlayerBack(sequence: 8, player: Self.bob)),
            .renamed(PlayerRenamed(sequence: 9, player: Self.bob, previousName: "robert")),
            .roundStarted(RoundStarted(sequence: 10, round: 2, range: range, commitment: commitment)),
            .roundWon(RoundWon(
                sequence: 11, round: 2, range: range, commitment: commitment, winner: Self.bob, secret: 42, salt: Self.salt,
                winningGuesses: 3, totalGuesses: 5)),
            .scoreboard(ScoreboardUpdate(sequence: 12, entries: [Scoreboard.Entry(player: Self.bob, wins: 1, guesses: 3, bestRound: 3)], totalEntries: 1)),
        ], omittedGuesses: 2, playerCount: 7)
        #expect(try json(batch) == PinnedWire.history)
        #expect(try json(ReplayMessage(after: 2, items: [.chat(RelayedChat(sequence: 4, from: Self.alice, text: "hello"))])) == PinnedWire.replay)
    }

    @Test("A welcome")
    func welcome() throws {
        let range = try GuessRange(1, 100)
        let state = GameState(
            round: 2, range: range, commitment: Commitment(secret: 42, salt: Self.salt),
            history: [Judgement(player: Self.bob, guess: 50, verdict: .tooHigh)], earlierJudgements: 0, lastSequence: 12,
            players: [Self.bob], playerCount: 1, scoreboard: [Scoreboard.Entry(player: Self.bob, wins: 1, guesses: 3, bestRound: 3)],
            reveal: nil, seatHoldSeconds: 60)
        #expect(try json(WelcomeMessage(you: Self.bob, game: state)) == PinnedWire.welcome)
    }
}
