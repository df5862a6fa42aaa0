import Foundation
import Multipeer
@testable import Rooms
import Testing
import TicTacToe

/// A broadcast split into payloads that each fit a frame, and a welcome made to fit one.
@Suite("Broadcasts and welcomes that fit a frame", .timeLimit(.minutes(1)))
struct BatchPayloadsTests {
    typealias Item = RoomItem<TicTacToeRules>

    func chat(_ sequence: UInt64, bytes: Int = 300) -> Item {
        .chat(RelayedChat(sequence: sequence, from: PlayerRef(id: UUID(), name: "bob"), text: String(repeating: "x", count: bytes)))
    }

    func encoded(_ items: [Item]) throws -> [[UInt8]] {
        try items.map { Array(try JSONEncoder().encode($0)) }
    }

    @Test("Items over the limit are split into payloads that each fit and decode as batches, in order")
    func split() throws {
        let items = (1...40).map { chat(UInt64($0)) }
        let payloads = BatchPayloads.split(try encoded(items), payloadLimit: 2_000) { _ in Array("}".utf8) }
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.count <= 2_000 })
        let decoded = try payloads.map { try JSONDecoder().decode(RoomBatch<TicTacToeRules>.self, from: $0) }
        #expect(decoded.flatMap(\.items) == items)
        let whole = BatchPayloads.split(try encoded(items), payloadLimit: 1_000_000) { _ in Array("}".utf8) }
        #expect(whole.count == 1, "what fits is one payload")
        #expect(try JSONDecoder().decode(RoomBatch<TicTacToeRules>.self, from: whole[0]).items == items)
    }

    @Test("A payload carries at most 256 items; the first closing differs from the others'; none makes one empty batch")
    func limits() throws {
        let items = try encoded((1...600).map { chat(UInt64($0), bytes: 1) })
        let payloads = BatchPayloads.split(items, payloadLimit: 10_000_000) { first in Array((first ? #","first":true}"# : "}").utf8) }
        #expect(payloads.count == 3)
        #expect(payloads.map { String(decoding: $0, as: UTF8.self).hasSuffix(#"],"first":true}"#) } == [true, false, false])
        let empty = BatchPayloads.split([], payloadLimit: 100) { _ in Array("}".utf8) }
        #expect(empty == [Data(#"{"items":[]}"#.utf8)])
    }

    @Test("An item too large for any payload goes alone, the others around it still split to fit")
    func oversizedItem() throws {
        let items = [chat(1, bytes: 100), chat(2, bytes: 5_000), chat(3, bytes: 100)]
        let payloads = BatchPayloads.split(try encoded(items), payloadLimit: 1_000) { _ in Array("}".utf8) }
        let decoded = try payloads.map { try JSONDecoder().decode(RoomBatch<TicTacToeRules>.self, from: $0).items }
        #expect(decoded == [[items[0]], [items[1]], [items[2]]])
    }

    @Test("A welcome too large for a frame lists fewer players, saying how many there are, then fewer scores")
    func welcomeFits() throws {
        let players = (1...60).map { PlayerRef(id: UUID(), name: "player number \($0) with a long name") }
        let scores = players.map { RoomScores.Entry(player: $0, wins: 1) }
        let welcome = RoomWelcome<TicTacToeRules>(
            you: players[0], round: 2, lastSequence: 9, players: players, scores: scores, seatHoldSeconds: 60, view: TicTacToeRules().view(for: nil))
        let whole = try StandardRoomCodec<TicTacToeRules>.encode(welcome, within: 1_000_000).payload
        #expect(try JSONDecoder().decode(RoomWelcome<TicTacToeRules>.self, from: whole) == welcome, "a welcome that fits is sent whole")
        let fitted = try StandardRoomCodec<TicTacToeRules>.encode(welcome, within: 3_000).payload
        #expect(fitted.count <= 3_000)
        let decoded = try JSONDecoder().decode(RoomWelcome<TicTacToeRules>.self, from: fitted)
        #expect(decoded.players.count < players.count)
        #expect(decoded.playerCount == 60)
        #expect(decoded.players == Array(players.prefix(decoded.players.count)), "the first players, in order")
        let tiny = try JSONDecoder().decode(RoomWelcome<TicTacToeRules>.self, from: try StandardRoomCodec<TicTacToeRules>.encode(welcome, within: 600).payload)
        #expect(tiny.players.isEmpty && tiny.scores.count < scores.count, "then the scores")
        #expect(tiny.you == players[0] && tiny.lastSequence == 9, "what the guest needs to play is kept")
    }
}
