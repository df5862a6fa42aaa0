import Foundation
import Multipeer
@testable import Rooms
import Testing
import TicTacToe

/// A room running tic-tac-toe as a value: seats, moves, rounds and wins, numbered items, welcomes
/// and replays, without a network.
@Suite("A room running a game, as a value", .timeLimit(.minutes(1)))
struct RoomTableTests {
    typealias Table = RoomTable<TicTacToeRules>
    let host = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func table() -> Table {
        Table(rules: TicTacToeRules(), configuration: RoomConfiguration(), host: host, moveThrottle: Throttle(rate: 20, burst: 5))
    }

    func seat(_ name: String, in table: inout Table) throws -> PeerID {
        let peer = try PeerID(displayName: name)
        guard case .newcomer = table.join(peer) else { throw Failure("\(name) was not seated") }
        return peer
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    func play(_ squares: [(PeerID, Int)], in table: inout Table) -> RoundResult? {
        var ended: RoundResult?
        for (peer, square) in squares {
            if case .played(_, _, let result) = table.move(.place(square: square), from: peer.identity, at: now) { ended = result ?? ended }
        }
        return ended
    }

    @Test("A whole round: items numbered in order, the winner credited once, the scores broadcast")
    func wholeRound() throws {
        var table = table()
        let bob = try seat("bob", in: &table), carol = try seat("carol", in: &table)
        table.startRound()
        let x = table.rules.view(for: nil).x
        let (first, second) = x?.id == bob.identity ? (bob, carol) : (carol, bob)
        let ended = play([(first, 1), (second, 4), (first, 2), (second, 5), (first, 3)], in: &table)
        #expect(ended?.winners.map(\.id) == [first.identity])
        #expect(table.isBetweenRounds)
        #expect(table.wins == [first.identity: 1])
        let items = table.takeFlush().batch?.items ?? []
        #expect(items.compactMap(\.sequence) == Array(1...UInt64(items.count)), "numbered in order, none skipped")
        guard case .scores(let scores)? = items.last else { Issue.record("the scores do not end the batch"); return }
        #expect(scores.winners.map(\.id) == [first.identity])
        #expect(scores.entries.map(\.wins) == [1])
        #expect(table.takeFlush().batch == nil, "nothing pending after a flush")
        guard case .refused(let refusal) = table.move(.place(square: 9), from: second.identity, at: now) else {
            Issue.record("a move after the round was played"); return
        }
        #expect(refusal == .roundOver)
    }

    @Test("A refused move changes nothing and numbers nothing; a seatless peer is not seated by moving")
    func refusals() throws {
        var table = table()
        let bob = try seat("bob", in: &table), carol = try seat("carol", in: &table)
        table.startRound()
        _ = table.takeFlush()
        let x = table.rules.view(for: nil).x
        let o = x?.id == bob.identity ? carol : bob
        guard case .refused(let refusal) = table.move(.place(square: 5), from: o.identity, at: now) else { Issue.record("O moved first"); return }
        #expect(refusal == .notYourTurn)
        #expect(table.takeFlush().batch == nil)
        guard case .notSeated = table.move(.place(square: 5), from: UUID(), at: now) else { Issue.record("a stranger moved"); return }
    }

    @Test("A player who gives up their seat mid-round forfeits it; the other is credited")
    func forfeit() throws {
        var table = table()
        let bob = try seat("bob", in: &table), carol = try seat("carol", in: &table)
        table.startRound()
        let ended = table.leave(bob.identity)
        #expect(ended?.winners.map(\.id) == [carol.identity])
        #expect(table.wins == [carol.identity: 1])
        #expect(table.leave(bob.identity) == nil, "once")
    }

    @Test("A newcomer's welcome carries the room and the game as they see it, and round-trips as JSON")
    func welcome() throws {
        var table = table()
        let bob = try seat("bob", in: &table)
        _ = try seat("carol", in: &table)
        table.startRound()
        let flush = table.takeFlush()
        let welcomes = flush.welcomes.filter { $0.peer == bob }.map(\.welcome)
        #expect(welcomes.count == 1)
        let welcome = try #require(welcomes.first)
        #expect(welcome.players.map(\.name) == ["bob", "carol"])
        #expect(welcome.lastSequence == table.lastSequence)
        #expect(welcome.view.role != .watching)
        let decoded = try JSONDecoder().decode(RoomWelcome<TicTacToeRules>.self, from: JSONEncoder().encode(welcome))
        #expect(decoded == welcome)
        #expect(RoomWelcome<TicTacToeRules>.messageType == "tictactoe.v1.welcome")
    }

    @Test("Items keep the room protocol's types and the game's prefix on the wire; unknown ones are skipped")
    func wire() throws {
        var table = table()
        _ = try seat("bob", in: &table)
        table.startRound()
        let batch = try #require(table.takeFlush().batch)
        let json = String(decoding: try JSONEncoder().encode(batch), as: UTF8.self)
        #expect(json.contains(#""type":"guessnum.v1.player-joined""#))
        #expect(json.contains(#""type":"tictactoe.v1.event""#))
        #expect(try JSONDecoder().decode(RoomBatch<TicTacToeRules>.self, from: Data(json.utf8)) == batch)
        let newer = #"{"items":[{"type":"tictactoe.v9.sparkle","body":{}}]}"#
        #expect(try JSONDecoder().decode(RoomBatch<TicTacToeRules>.self, from: Data(newer.utf8)).items == [.unknown(type: "tictactoe.v9.sparkle")])
    }

    @Test("A player back after a drop is replayed what came after the last item they had")
    func replay() throws {
        var table = table()
        let bob = try seat("bob", in: &table)
        _ = table.takeFlush()
        let had = table.lastSequence
        table.drop(bob.identity, at: now)
        _ = table.hostChat("you missed this")
        _ = table.takeFlush()
        guard case .returned = table.join(bob, resumeAfter: had) else { Issue.record("bob did not get his seat back"); return }
        let flush = table.takeFlush()
        let replayed = try #require(flush.replays.first { $0.peer == bob }?.items)
        #expect(replayed.contains { if case .chat(let line) = $0 { line.text == "you missed this" } else { false } })
        #expect(replayed.allSatisfy { ($0.sequence ?? 0) > had })
        #expect(flush.welcomes.isEmpty, "a replay, not a welcome")
    }

    @Test("A big room's welcome lists some players with the count, and the scores carry the best entries only")
    func bigRoomWelcome() throws {
        var configuration = RoomConfiguration()
        configuration.welcomePlayerLimit = 2
        configuration.scoreboardLimit = 0
        var table = Table(rules: TicTacToeRules(), configuration: configuration, host: host, moveThrottle: Throttle(rate: 20, burst: 5))
        let bob = try seat("bob", in: &table), carol = try seat("carol", in: &table), dave = try seat("dave", in: &table)
        let welcome = table.welcome(for: PlayerRef(id: dave.identity, name: "dave"))
        #expect(welcome.players.count == 2)
        #expect(welcome.playerCount == 3)
        table.startRound()
        let x = table.rules.view(for: nil).x
        let (first, second) = x?.id == bob.identity ? (bob, carol) : (carol, bob)
        _ = play([(first, 1), (second, 4), (first, 2), (second, 5), (first, 3)], in: &table)
        #expect(table.scores.count == 1, "the host keeps every score")
        let items = table.takeFlush().batch?.items ?? []
        guard case .scores(let scores)? = items.last else { Issue.record("no scores"); return }
        #expect(scores.entries.isEmpty && scores.winners.map(\.id) == [first.identity], "the broadcast carries at most the limit")
        var small = self.table()
        let erin = try seat("erin", in: &small)
        _ = try seat("frank", in: &small)
        let whole = small.welcome(for: PlayerRef(id: erin.identity, name: "erin"))
        #expect(whole.players.count == 2 && whole.playerCount == nil, "a welcome that lists everyone has no count")
    }
}
