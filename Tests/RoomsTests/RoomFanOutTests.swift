import Foundation
import Multipeer
@testable import Rooms
import Testing

/// A game whose lines are commentary, for the fan-out's caps: a "line" move says something,
/// a "mark" move changes what players see.
struct CommentaryRules: GameRules {
    enum Event: Sendable, Hashable, Codable { case line(Int), mark(Int) }
    static let kind = GameKind(id: "commentary", title: "commentary", messagePrefix: "commentary.v1.")
    var settings: Int
    init(settings: Int) { self.settings = settings }
    mutating func startRound(_ number: Int, players: [PlayerRef]) -> [Event] { [] }
    mutating func playerJoined(_ player: PlayerRef) -> [Event] { [] }
    mutating func playerLeft(_ player: PlayerRef) -> [Event] { [] }
    mutating func apply(_ move: Event, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<Event> { MoveOutcome(broadcast: [move]) }
    func view(for player: PlayerRef?) -> Int { settings }
    var roundResult: RoundResult? { nil }
    static func isCommentary(_ event: Event) -> Bool { if case .line = event { true } else { false } }
}

@Suite("A busy room's tick lists some lines and counts the rest", .timeLimit(.minutes(1)))
struct RoomFanOutTests {
    typealias Item = RoomItem<CommentaryRules>
    let bob = PlayerRef(id: UUID(), name: "bob")

    @Test("Commentary past the cap is counted; what players' views depend on is always listed; the cap is per tick")
    func commentaryCapped() throws {
        var fanOut = RoomFanOut<CommentaryRules>(maximumLinesPerTick: 2)
        var sequence: UInt64 = 0
        for event in [CommentaryRules.Event.line(1), .line(2), .mark(1), .line(3), .line(4), .mark(2)] {
            sequence += 1
            fanOut.enqueue(.game(sequence: sequence, event: event))
        }
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.compactMap(\.sequence) == [1, 2, 3, 6])
        #expect(batch.omittedEvents == 2 && batch.hasOmissions && batch.playerCount == nil)
        #expect(fanOut.take() == nil, "nothing pending after a take")
        fanOut.enqueue(.game(sequence: 7, event: .line(5)))
        #expect(fanOut.take()?.omittedEvents == 0, "the cap is per tick")
    }

    @Test("Joins and leaves past the cap are counted with the player count; absences and returns too")
    func membershipCapped() throws {
        var fanOut = RoomFanOut<CommentaryRules>(maximumLinesPerTick: 1)
        fanOut.enqueue(.joined(PlayerJoined(sequence: 1, player: bob, playerCount: 1)))
        fanOut.enqueue(.joined(PlayerJoined(sequence: 2, player: bob, playerCount: 2)))
        fanOut.enqueue(.left(PlayerLeft(sequence: 3, player: bob, playerCount: 1, removedByHost: false)))
        fanOut.enqueue(.away(PlayerAway(sequence: 4, player: bob, holdSeconds: 60)))
        fanOut.enqueue(.chat(RelayedChat(sequence: 5, from: bob, text: "hi")))
        let taken = fanOut.take()
        let batch = try #require(taken)
        #expect(batch.items.compactMap(\.sequence) == [1, 5], "chat is always listed")
        #expect((batch.omittedJoins, batch.omittedLeaves, batch.omittedOthers, batch.playerCount) == (1, 1, 1, 1))
        let decoded = try JSONDecoder().decode(RoomBatch<CommentaryRules>.self, from: JSONEncoder().encode(batch))
        #expect(decoded == batch, "the counts travel")
        let plain = String(decoding: try JSONEncoder().encode(RoomBatch<CommentaryRules>(items: [])), as: UTF8.self)
        #expect(plain == #"{"items":[]}"#, "no counts on the wire when none are due")
    }

    @Test("The split payloads carry the counts in the first one, as the codec closes it")
    func countsInFirstPayload() throws {
        let batch = RoomBatch<CommentaryRules>(items: [.chat(RelayedChat(sequence: 9, from: bob, text: "x"))], omittedEvents: 3, omittedJoins: 2, playerCount: 40)
        let closing = String(decoding: StandardRoomCodec<CommentaryRules>.batchClosing(of: batch, first: true), as: UTF8.self)
        #expect(closing == #","omittedEvents":3,"omittedJoins":2,"playerCount":40}"#)
        #expect(StandardRoomCodec<CommentaryRules>.batchClosing(of: batch, first: false) == Array("}".utf8))
        let items = try [StandardRoomCodec<CommentaryRules>.encode(item: batch.items[0])]
        let payload = try #require(BatchPayloads.split(items, payloadLimit: 1_000) { StandardRoomCodec<CommentaryRules>.batchClosing(of: batch, first: $0) }.first)
        #expect(try JSONDecoder().decode(RoomBatch<CommentaryRules>.self, from: payload) == batch)
    }
}
