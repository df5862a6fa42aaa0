import Rooms

/// One player's cards in a round: the face-down stack and the face-up pile, the last card of
/// each array on top.
struct PlayerCards: Sendable, Hashable, Codable {
    /// Whose cards.
    var player: PlayerRef
    /// The face-down stack, its top card last.
    var stack: [Card] = []
    /// The face-up pile, its top card last.
    var pile: [Card] = []

    /// How many cards the player holds.
    var count: Int { stack.count + pile.count }

    /// Whether the player holds any card (a player with none is out of the round).
    var holdsCards: Bool { count > 0 }

    /// Turns the top card of the stack over onto the pile, first turning the pile over to be the
    /// stack when the stack is empty; the card, and whether the pile was turned over.
    mutating func turnOver() -> (card: Card, pileTurnedOver: Bool)? {
        let recycle = stack.isEmpty
        if recycle { (stack, pile) = (pile.reversed(), []) }
        guard let card = stack.popLast() else { return nil }
        pile.append(card)
        return (card, recycle)
    }

    /// Takes one card to give away: the top of the stack, or when the stack is empty the card at
    /// the bottom of the pile (the one that would be on top were the pile turned over), so the
    /// card showing stays.
    mutating func giveOne() -> Card? {
        if let card = stack.popLast() { return card }
        return pile.isEmpty ? nil : pile.removeFirst()
    }

    /// Every card, the stack's top first, then the pile from the bottom, emptying both.
    mutating func giveAll() -> [Card] {
        var cards: [Card] = []
        while let card = giveOne() { cards.append(card) }
        return cards
    }

    /// Puts `card` face down under the stack.
    mutating func putUnder(_ card: Card) {
        stack.insert(card, at: 0)
    }

    /// Puts a taken face-up `pile` under the stack, turned face down.
    mutating func putUnder(pile taken: [Card]) {
        stack.insert(contentsOf: taken.reversed(), at: 0)
    }

    /// The seat as everyone sees it.
    var seat: SnapView.Seat {
        SnapView.Seat(player: player, faceDown: stack.count, faceUp: pile.count, top: pile.last)
    }
}
