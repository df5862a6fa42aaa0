import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("The JSON on the wire", .timeLimit(.minutes(1)))
struct WireTests {
    let alice = Players.alice, bob = Players.bob

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(T.self, from: data) == value)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("A move is {\"place\":{\"square\":n}}")
    func move() throws {
        #expect(try roundTrip(TicTacToeMove.place(square: 5)) == #"{"place":{"square":5}}"#)
        #expect(try roundTrip(TicTacToeSettings()) == "{}")
    }

    @Test("Every event survives a round trip")
    func events() throws {
        let events: [TicTacToeEvent] = [
            .roundStarted(round: 2, x: alice, o: bob), .waiting(round: 1, player: alice), .waiting(round: 1, player: nil),
            .placed(player: bob, mark: .o, square: Square(5)!), .won(winner: alice, mark: .x, line: [Square(3)!, Square(5)!, Square(7)!]),
            .drawn, .forfeited(leaver: bob, winner: alice),
        ]
        for event in events { _ = try roundTrip(event) }
        #expect(try roundTrip(TicTacToeEvent.drawn) == #"{"drawn":{}}"#)
        #expect(try roundTrip(TicTacToeEvent.waiting(round: 1, player: nil)) == #"{"waiting":{"round":1}}"#)
        let placed = try roundTrip(TicTacToeEvent.placed(player: bob, mark: .o, square: Square(5)!))
        #expect(placed.contains(#""mark":"O""#) && placed.contains(#""square":5"#))
    }

    @Test("Views at every stage survive a round trip; the board is nine characters")
    func views() throws {
        var rules = TicTacToeRules()
        _ = try roundTrip(rules.view(for: nil))
        _ = rules.startRound(1, players: [alice, bob])
        try rules.play([1, 5])
        let json = try roundTrip(rules.view(for: bob))
        #expect(json.contains(#""board":"X...O....""#) && json.contains(#""role":"O""#))
        #expect(json.contains(#""phase":{"playing":{"next":"X"}}"#))
        try rules.play([2, 9, 3])
        _ = try roundTrip(rules.view(for: alice))
        _ = rules.startRound(2, players: [alice, bob])
        try rules.play([1])
        _ = rules.playerLeft(alice)
        _ = try roundTrip(rules.view(for: bob))
    }

    @Test("Hostile JSON fails to decode, cleanly", arguments: [
        (#"{"resign":{}}"#, "move"),
        (#"{"place":{"square":99999999999999999999999}}"#, "move"),
        (#"{"place":{"square":1.5}}"#, "move"),
        (#"{"place":{}}"#, "move"),
        (#"{"placed":{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"mark":"X","square":10}}"#, "event"),
        (#"{"placed":{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"mark":"Z","square":1}}"#, "event"),
        (#"{"won":{"winner":{"id":"nope","name":"x"},"mark":"X","line":[1,5,9]}}"#, "event"),
        (#"{"explode":{}}"#, "event"),
        (#"{"round":1,"board":"X.O","phase":{"waiting":{}},"role":"X"}"#, "view"),
        (#"{"round":1,"board":"X.O.Z....","phase":{"waiting":{}},"role":"X"}"#, "view"),
        (#"{"round":1,"board":".........","phase":{"won":{"mark":"X","line":[0,5,9]}},"role":"X"}"#, "view"),
        (#"{"round":1,"board":".........","phase":{"waiting":{}},"role":"king"}"#, "view"),
        (#"{"round":1e400,"board":".........","phase":{"waiting":{}},"role":"X"}"#, "view"),
    ])
    func hostile(json: String, type: String) {
        let data = Data(json.utf8)
        let decoder = JSONDecoder()
        switch type {
        case "move": #expect(throws: (any Error).self) { try decoder.decode(TicTacToeMove.self, from: data) }
        case "event": #expect(throws: (any Error).self) { try decoder.decode(TicTacToeEvent.self, from: data) }
        default: #expect(throws: (any Error).self) { try decoder.decode(TicTacToeView.self, from: data) }
        }
    }

    @Test("A square out of range decodes as a move, and the rules refuse it")
    func outOfRangeMove() throws {
        let move = try JSONDecoder().decode(TicTacToeMove.self, from: Data(#"{"place":{"square":10}}"#.utf8))
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        #expect(throws: MoveRefusal.noSuchSquare) { try rules.apply(move, from: alice) }
    }
}
