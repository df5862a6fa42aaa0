import Foundation
@testable import GuessnumGame
import Testing

@Suite("Coalescing broadcasts")
struct FanOutTests {
    let bob = PlayerRef(id: UUID(), name: "bob")

    func line(_ sequence: UInt64) -> HistoryItem {
        .verdict(GuessLine(sequence: sequence, round: 1, judgement: Judgement(player: bob, guess: Int64(sequence), verdict: .tooLow)))
    }

    @Test("Everything enqueued between ticks becomes one batch, in order, and then nothing is pending")
    func oneBatchPerTick() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 250)
        #expect(fanOut.take() == nil)
        for sequence in 1...40 { fanOut.enqueue(line(UInt64(sequence))) }
        fanOut.enqueue(.chat(ChatLine(sequence: 41, from: bob, text: "hi")))
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.compactMap(\.sequence) == Array(1...41))
        #expect(try FanOut.encode(batch, payloadLimit: 65_000).count == 1, "one message for the whole tick")
        #expect(fanOut.take() == nil)
    }

    @Test("Guess lines beyond the cap are counted, not sent; other items always go")
    func cap() throws {
        var fanOut = FanOut(maximumGuessLinesPerTick: 3)
        for sequence in 1...10 { fanOut.enqueue(line(UInt64(sequence))) }
        fanOut.enqueue(.chat(ChatLine(sequence: 11, from: bob, text: "still here")))
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
        let payloads = try FanOut.encode(batch, payloadLimit: 8_000)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.count <= 8_000 })
        let decoded = try payloads.map { try JSONDecoder().decode(HistoryBatch.self, from: $0) }
        #expect(decoded.flatMap(\.items).compactMap(\.sequence) == Array(1...1000))
    }
}
