import Foundation
import Rooms
import Testing

@testable import Snap

/// The people of the tests, in arrival order.
enum Players {
    static let alice = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, name: "alice")
    static let bob = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!, name: "bob")
    static let carol = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000C")!, name: "carol")
    static let dave = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000D")!, name: "dave")
}

/// The cards that `text` names, separated by spaces: "7♥ 10♠ Q♦".
func cards(_ text: String) -> [Card] {
    text.split(separator: " ").map { Card(String($0))! }
}

/// A player's cards for an arranged table, the last card of each list on top.
func holding(_ player: PlayerRef, stack: String = "", pile: String = "") -> PlayerCards {
    PlayerCards(player: player, stack: cards(stack), pile: cards(pile))
}

extension SnapRules {
    /// A round `round` being played with exactly these cards, the first player holding cards to
    /// turn first.
    static func arranged(_ hands: [PlayerCards], round: Int = 1) -> SnapRules {
        var rules = SnapRules()
        rules.round = round
        rules.arrange(hands)
        return rules
    }

    /// A round of `players` dealt from `seed`.
    static func dealt(_ players: [PlayerRef], seed: UInt64 = 7, round: Int = 1) -> SnapRules {
        var rules = SnapRules(settings: SnapSettings(seed: seed))
        _ = rules.startRound(round, players: players)
        return rules
    }

    /// Plays `move` for `player`, returning what it broadcast.
    @discardableResult
    mutating func play(_ move: SnapMove, from player: PlayerRef) throws(MoveRefusal) -> [SnapEvent] {
        let outcome = try apply(move, from: player)
        #expect(outcome.reply == nil, "snap tells the mover nothing privately")
        return outcome.broadcast
    }

    /// Turns a card over for whoever's turn it is.
    @discardableResult
    mutating func turnForWhoeverIsNext() throws(MoveRefusal) -> [SnapEvent] {
        guard let next = view(for: nil).turn else { throw .roundOver }
        return try play(.turn, from: next)
    }

    /// Every card the round's players hold, in no particular order.
    var heldCards: [Card] { hands.flatMap { $0.stack + $0.pile } }

    /// The cards `player` holds: their stack (last on top) and their pile (last on top).
    func cards(of player: PlayerRef) -> (stack: [Card], pile: [Card])? {
        seat(of: player).map { (hands[$0].stack, hands[$0].pile) }
    }
}
