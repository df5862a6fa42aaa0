import Foundation
import RockPaperScissors
import Rooms
import Snap
import TicTacToe

/// The `games` target: what a stranger can send a tic-tac-toe, rock-paper-scissors or Snap room.
/// Every move, event, view and settings decoder must round-trip what it decodes, and a decoded
/// move played in a game in progress must be refused or applied, never trap.
enum GameFuzzing {
    static let alice = PlayerRef(id: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!, name: "alice")
    static let bob = PlayerRef(id: UUID(uuidString: "0B0B0B0B-0D3A-4A57-9C1E-2B7D4F6A8E10")!, name: "bob")

    static func run(_ data: Data) {
        roundTrip(TicTacToeMove.self, data)
        roundTrip(TicTacToeEvent.self, data)
        roundTrip(TicTacToeView.self, data)
        roundTrip(TicTacToeSettings.self, data)
        roundTrip(RPSMove.self, data)
        roundTrip(RPSEvent.self, data)
        roundTrip(RPSView.self, data)
        roundTrip(RPSSettings.self, data)
        roundTrip(SnapMove.self, data)
        roundTrip(SnapEvent.self, data)
        roundTrip(SnapView.self, data)
        roundTrip(SnapSettings.self, data)
        if let move = try? JSONDecoder().decode(TicTacToeMove.self, from: data) {
            var rules = TicTacToeRules()
            _ = rules.startRound(1, players: [alice, bob])
            _ = try? rules.apply(move, from: alice)
            _ = try? rules.apply(move, from: bob)
        }
        if let move = try? JSONDecoder().decode(RPSMove.self, from: data) {
            var rules = RPSRules(settings: RPSSettings())
            _ = rules.startRound(1, players: [alice, bob])
            _ = try? rules.apply(move, from: alice)
            _ = try? rules.apply(move, from: bob)
        }
        if let move = try? JSONDecoder().decode(SnapMove.self, from: data) {
            var rules = SnapRules(settings: SnapSettings(seed: 1))
            _ = rules.startRound(1, players: [alice, bob])
            _ = try? rules.apply(move, from: alice)
            _ = try? rules.apply(move, from: bob)
        }
    }

    private static func roundTrip<Value: Codable & Equatable>(_ type: Value.Type, _ data: Data) {
        guard let value = try? JSONDecoder().decode(type, from: data) else { return }
        guard let encoded = try? JSONEncoder().encode(value) else { preconditionFailure("a decoded \(type) encodes") }
        precondition((try? JSONDecoder().decode(type, from: encoded)) == value, "\(type) round-trips")
    }

    /// Seeds: a move, event and view of each game, as the rules make them.
    static func seeds() throws -> [[UInt8]] {
        func json(_ value: some Encodable) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }
        var ticTacToe = TicTacToeRules()
        let started = ticTacToe.startRound(1, players: [alice, bob])
        let placed = try ticTacToe.apply(.place(square: 5), from: alice)
        var rps = RPSRules(settings: RPSSettings())
        _ = rps.startRound(1, players: [alice, bob])
        let sealed = SealedHand(hand: .rock)
        let committed = try rps.apply(sealed.commitMove, from: alice)
        var snap = SnapRules(settings: SnapSettings(seed: 1))
        let dealt = snap.startRound(1, players: [alice, bob])
        let turned = try snap.apply(.turn, from: alice)
        return [
            try json(TicTacToeMove.place(square: 5)), try json(started), try json(placed.broadcast), try json(ticTacToe.view(for: bob)),
            try json(sealed.commitMove), try json(sealed.revealMove), try json(committed.broadcast), try json(rps.view(for: alice)),
            try json(RPSSettings()),
            try json(SnapMove.turn), try json(SnapMove.snap), try json(dealt), try json(turned.broadcast), try json(snap.view(for: bob)),
            try json(SnapSettings(seed: 1)),
        ]
    }
}
