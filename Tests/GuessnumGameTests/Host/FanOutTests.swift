import Foundation
@testable import GuessnumGame
@testable import Rooms
import Testing

/// The room's fan-out as guess-the-number's host runs it: its history items in, its batch out.
struct FanOut {
    var room: RoomFanOut<GuessRules>

    init(maximumGuessLinesPerTick: Int) {
        room = RoomFanOut(maximumLinesPerTick: maximumGuessLinesPerTick)
    }

    mutating func enqueue(_ item: HistoryItem) { room.enqueue(RoomItem(item)) }

    mutating func take() -> HistoryBatch? {
        room.take().map { batch in
            HistoryBatch(
                items: batch.items.map(\.historyItem), omittedGuesses: batch.omittedEvents, omittedJoins: batch.omittedJoins,
                omittedLeaves: batch.omittedLeaves, playerCount: batch.playerCount)
        }
    }
}

@Suite("Coalescing broadcasts", .timeLimit(.minutes(2)))
struct FanOutTests {
    let bob = PlayerRef(id: UUID(), name: "bob")

    func line(_ sequence: UInt64) -> HistoryItem {
        .verdict(JudgedGuess(sequence: sequence, round: 1, judgement: Judgement(player: bob, guess: Int64(sequence), verdict: .tooLow)))
    }

    @Test("Everything enqueued between ticks becomes one batch, in order, and then nothing is pending")
    func oneBatchPerTick() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 250)
        #expect(fanOut.take() == nil)
        for sequence in 1...40 { fanOut.enqueue(line(UInt64(sequence))) }
        fanOut.enqueue(.chat(RelayedChat(sequence: 41, from: bob, text: "hi")))
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.compactMap(\.sequence) == Array(1...41))
        #expect(try HistoryPayloads.encode(batch, payloadLimit: 65_000).count == 1, "one message for the whole tick")
        #expect(fanOut.take() == nil)
    }

    @Test("Guess lines beyond the cap are counted, not sent; other items always go")
    func cap() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 3)
        for sequence in 1...10 { fanOut.enqueue(line(UInt64(sequence))) }
        fanOut.enqueue(.chat(RelayedChat(sequence: 11, from: bob, text: "still here")))
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.compactMap(\.sequence) == [1, 2, 3, 11])
        #expect(batch.omittedGuesses == 7)
        fanOut.enqueue(line(12))
        #expect(fanOut.take()?.omittedGuesses == 0, "the cap is per tick")
    }

    @Test("A batch too large for one frame is split into parts that each fit, keeping order")
    func split() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 10_000)
        for sequence in 1...1000 { fanOut.enqueue(line(UInt64(sequence))) }
        let taken = fanOut.take()
        let batch = try #require(taken)
        let payloads = try HistoryPayloads.encode(batch, payloadLimit: 8_000)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.count <= 8_000 })
        let decoded = try payloads.map { try JSONDecoder().decode(HistoryBatch.self, from: $0) }
        #expect(decoded.flatMap(\.items).compactMap(\.sequence) == Array(1...1000))
    }
}

@Suite("Broadcasts in big games", .timeLimit(.minutes(2)))
struct BroadcastBudgetTests {
    let configuration = RoomConfiguration()

    @Test("The tick stays 50 ms up to 1,000 players and lengthens beyond, keeping within 20,000 frames a second", arguments: [
        (1, 50), (1_000, 50), (2_500, 125), (10_000, 500),
    ])
    func interval(players: Int, milliseconds: Int) {
        #expect(configuration.broadcastInterval(players: players) == .milliseconds(milliseconds))
    }

    @Test("Each tick lists fewer lines as the game grows: never more than 100,000 a second to everyone, never fewer than one", arguments: [
        (1, 250), (8, 250), (100, 50), (1_000, 5), (10_000, 5), (50_000, 5),
    ])
    func linesPerTick(players: Int, lines: Int) {
        let interval = configuration.broadcastInterval(players: players)
        #expect(configuration.listedLinesPerTick(players: players, interval: interval, cap: configuration.maximumLinesPerTick) == lines)
        var stingy = configuration
        stingy.broadcastLinesPerSecond = 1
        #expect(stingy.listedLinesPerTick(players: players, interval: interval, cap: stingy.maximumLinesPerTick) == 1)
    }

    @Test("Joins and leaves beyond the cap are counted, with the player count, and old decoders still read the batch")
    func membership() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 2)
        for count in 1...5 {
            fanOut.enqueue(.joined(PlayerJoined(sequence: UInt64(count), player: PlayerRef(id: UUID(), name: "p\(count)"), playerCount: count)))
        }
        fanOut.enqueue(.left(PlayerLeft(sequence: 6, player: PlayerRef(id: UUID(), name: "p1"), playerCount: 4)))
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.count == 2)
        #expect(batch.omittedJoins == 3 && batch.omittedLeaves == 1 && batch.playerCount == 4)
        let payloads = try HistoryPayloads.encode(batch, payloadLimit: 65_000)
        #expect(try JSONDecoder().decode(HistoryBatch.self, from: payloads[0]) == batch)
        #expect(fanOut.take() == nil, "nothing left over")
        // A batch without omissions has none of the new keys, exactly as before.
        let plain = try HistoryPayloads.encode(HistoryBatch(items: [batch.items[0]]), payloadLimit: 65_000)[0]
        #expect(String(decoding: plain, as: UTF8.self).hasSuffix(#"],"omittedGuesses":0}"#))
    }
}
