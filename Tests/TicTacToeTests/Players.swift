import Foundation
import Rooms
import TicTacToe

/// The people of the tests, in join order.
enum Players {
    static let alice = PlayerRef(id: UUID(), name: "alice")
    static let bob = PlayerRef(id: UUID(), name: "bob")
    static let carol = PlayerRef(id: UUID(), name: "carol")
    static let dave = PlayerRef(id: UUID(), name: "dave")
}

extension TicTacToeRules {
    /// Plays `squares` in turn from round's X then O, returning every event broadcast.
    @discardableResult
    mutating func play(_ squares: [Int]) throws(MoveRefusal) -> [TicTacToeEvent] {
        var events: [TicTacToeEvent] = []
        for square in squares {
            guard let mover = view(for: nil).turn else { throw .roundOver }
            events += try apply(.place(square: square), from: mover).broadcast
        }
        return events
    }

    /// Who plays X and O this round.
    var pair: (x: PlayerRef?, o: PlayerRef?) {
        let view = view(for: nil)
        return (view.x, view.o)
    }
}
