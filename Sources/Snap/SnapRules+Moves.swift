import Rooms

extension SnapRules {
    /// Plays `move` for `player`.
    ///
    /// - ``SnapMove/turn``: the mover's top face-down card goes face up onto their pile (their
    ///   pile is turned over to be their stack first when the stack is empty), and the turn passes
    ///   to the next player in deal order who holds cards.
    /// - ``SnapMove/snap``: with two or more piles showing the same rank, the mover takes every
    ///   pile showing it, under their stack. With none, a call after the latest snap and before
    ///   the next card is late and costs nothing; any other is wrong, and the caller gives a card
    ///   to each other player holding cards, in turn order, as far as their cards last.
    ///
    /// Refused with `roundOver`, `deckWaitsForSecondPlayer`, `watching`, `outOfCards`, then
    /// `notYourTurnToTurnOver` (a turn) or `alreadyCalledSnap` (a late call made twice), checked
    /// in that order.
    public mutating func apply(_ move: SnapMove, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<SnapEvent> {
        guard case .playing(let next) = phase else { throw round > 0 && phase == .waiting ? .deckWaitsForSecondPlayer : .roundOver }
        guard let index = seat(of: player) else { throw .watching }
        guard hands[index].holdsCards else { throw .outOfCards }
        switch move {
        case .turn:
            guard next.id == player.id else { throw .notYourTurnToTurnOver }
            return MoveOutcome(broadcast: turnOver(at: index, byTheGame: false))
        case .snap:
            return MoveOutcome(broadcast: try callSnap(at: index))
        }
    }

    /// Turns the card of the player at `index` over, for them when `byTheGame`, and passes the
    /// turn on.
    mutating func turnOver(at index: Int, byTheGame: Bool) -> [SnapEvent] {
        let player = hands[index].player
        guard let (card, pileTurnedOver) = hands[index].turnOver() else { return [] }
        claimed = nil
        lastTurned = card
        passTurn(after: index)
        let turned: SnapEvent = byTheGame ? .outOfTime(player: player, card: card) : .turned(player: player, card: card)
        return (pileTurnedOver ? [.pileTurnedOver(player: player)] : []) + [turned]
    }

    /// A call of snap by the player at `index`: a take, a late call or a wrong one.
    private mutating func callSnap(at index: Int) throws(MoveRefusal) -> [SnapEvent] {
        let caller = hands[index].player
        if let rank = pairedRank { return take(rank, by: index) }
        guard var claimed else { return giveAway(from: index) }
        guard !claimed.wasCalled(by: caller) else { throw .alreadyCalledSnap }
        claimed.callers.append(caller)
        self.claimed = claimed
        return [.tooLate(player: caller, position: claimed.callers.count, after: claimed.callers[0])]
    }

    /// The rank two or more face-up piles show, if any: the rank of the card turned latest when
    /// it is one of them, otherwise the first in deal order.
    var pairedRank: Card.Rank? {
        let tops = hands.compactMap(\.pile.last?.rank)
        let paired = tops.filter { rank in tops.count(where: { $0 == rank }) >= 2 }
        if let latest = lastTurned?.rank, paired.contains(latest) { return latest }
        return paired.first
    }

    /// The player at `index` takes every pile showing `rank` under their stack.
    private mutating func take(_ rank: Card.Rank, by index: Int) -> [SnapEvent] {
        let holding = hands.map(\.holdsCards)
        var taken = 0
        for seat in hands.indices where hands[seat].pile.last?.rank == rank {
            let pile = hands[seat].pile
            hands[seat].pile = []
            hands[index].putUnder(pile: pile)
            taken += pile.count
        }
        let caller = hands[index].player
        claimed = ClaimedPair(rank: rank, callers: [caller])
        return [.snapped(player: caller, rank: rank, cardsTaken: taken)] + settle(holding: holding)
    }

    /// A wrong call: the player at `index` gives a card to each other player holding cards.
    private mutating func giveAway(from index: Int) -> [SnapEvent] {
        let holding = hands.map(\.holdsCards)
        var givenTo: [PlayerRef] = []
        for receiver in holders(after: index) {
            guard let card = hands[index].giveOne() else { break }
            hands[receiver].putUnder(card)
            givenTo.append(hands[receiver].player)
        }
        return [.wrongSnap(player: hands[index].player, givenTo: givenTo)] + settle(holding: holding)
    }

    /// After cards changed hands: says who ran out (of those `holding` cards before), passes the
    /// turn on from a player who ran out, and ends the round when one player holds every card.
    private mutating func settle(holding: [Bool]) -> [SnapEvent] {
        let ranOut = hands.indices.filter { holding[$0] && !hands[$0].holdsCards }
        if case .playing(let next) = phase, let turn = seat(of: next), ranOut.contains(turn) { passTurn(after: turn) }
        return ranOut.map { SnapEvent.out(player: hands[$0].player) } + endIfOneHoldsAll()
    }
}
