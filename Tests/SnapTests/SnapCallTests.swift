import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("Calling snap: a pair taken, a call too late, a wrong call", .timeLimit(.minutes(1)))
struct SnapCallTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    /// alice shows 7♥ on 2♠, bob 7♠ on 3♦, carol Q♣ on 4♣; dave holds four cards face down only.
    func pairShowing() -> SnapRules {
        var rules = SnapRules.arranged([
            holding(alice, stack: "9♠", pile: "2♠ 7♥"), holding(bob, stack: "9♥", pile: "3♦ 7♠"),
            holding(carol, stack: "9♦", pile: "4♣ Q♣"), holding(dave, stack: "9♣ 5♥ 6♥ 8♥"),
        ])
        rules.lastTurned = Card(.seven, .spades)
        return rules
    }

    @Test("The first to call on a pair takes both piles under their stack, turned face down")
    func takesThePair() throws {
        var rules = pairShowing()
        #expect(try rules.play(.snap, from: bob) == [.snapped(player: bob, rank: .seven, cardsTaken: 4)])
        #expect(rules.cards(of: bob)?.stack == cards("7♠ 3♦ 7♥ 2♠ 9♥"), "each pile in deal order goes under the last")
        #expect(rules.cards(of: bob)?.pile == [] && rules.cards(of: alice)?.pile == [])
        #expect(rules.cards(of: carol)?.pile == cards("4♣ Q♣"), "a pile showing another rank stays")
        #expect(rules.awaited == [alice], "a snap does not move the turn")
        #expect(rules.heldCards.count == 13)
    }

    @Test("A player who is not one of the pair may call it and take it")
    func thirdPartyTakes() throws {
        var rules = pairShowing()
        #expect(try rules.play(.snap, from: dave) == [.snapped(player: dave, rank: .seven, cardsTaken: 4)])
        #expect(rules.cards(of: dave)?.stack == cards("7♠ 3♦ 7♥ 2♠ 9♣ 5♥ 6♥ 8♥"))
        #expect(rules.view(for: nil).players.map(\.cards) == [1, 1, 3, 8])
    }

    @Test("Three piles showing a rank are all taken")
    func threeOfARank() throws {
        var rules = SnapRules.arranged([holding(alice, pile: "7♥"), holding(bob, pile: "7♠"), holding(carol, stack: "2♣", pile: "7♣")])
        #expect(try rules.play(.snap, from: carol) == [
            .snapped(player: carol, rank: .seven, cardsTaken: 3), .out(player: alice), .out(player: bob), .won(winner: carol),
        ])
        #expect(rules.roundResult == RoundResult(winners: [carol]))
        #expect(rules.view(for: nil).phase == .won(winner: carol))
    }

    @Test("Of two pairs showing, a call takes the pair of the card turned latest")
    func twoPairs() throws {
        var rules = SnapRules.arranged([
            holding(alice, stack: "2♠", pile: "7♥"), holding(bob, stack: "2♦", pile: "7♠"),
            holding(carol, stack: "5♣ K♠", pile: "3♣"), holding(dave, stack: "2♣", pile: "K♥"),
        ])
        rules.phase = .playing(next: carol)
        try rules.play(.turn, from: carol)
        #expect(try rules.play(.snap, from: alice) == [.snapped(player: alice, rank: .king, cardsTaken: 3)])
        #expect(try rules.play(.snap, from: bob) == [.snapped(player: bob, rank: .seven, cardsTaken: 2)])
        #expect(try rules.play(.snap, from: carol) == [.tooLate(player: carol, position: 2, after: bob)])
    }

    @Test("Calls after the pair is taken, before the next card, are late: no cost, and each is told their place")
    func tooLate() throws {
        var rules = pairShowing()
        try rules.play(.snap, from: carol)
        let held = rules.view(for: nil).players.map(\.cards)
        #expect(try rules.play(.snap, from: alice) == [.tooLate(player: alice, position: 2, after: carol)])
        #expect(try rules.play(.snap, from: dave) == [.tooLate(player: dave, position: 3, after: carol)])
        #expect(try rules.play(.snap, from: bob) == [.tooLate(player: bob, position: 4, after: carol)])
        #expect(rules.view(for: nil).players.map(\.cards) == held, "a late call costs nothing")
        let before = rules
        #expect(throws: MoveRefusal.alreadyCalledSnap) { try rules.apply(.snap, from: alice) }
        #expect(throws: MoveRefusal.alreadyCalledSnap) { try rules.apply(.snap, from: carol) }
        #expect(rules == before)
    }

    @Test("Once a card is turned, a call with no pair is wrong again")
    func lateEndsWithTheNextCard() throws {
        var rules = pairShowing()
        try rules.play(.snap, from: carol)
        try rules.play(.turn, from: alice)
        let events = try rules.play(.snap, from: dave)
        #expect(events == [.wrongSnap(player: dave, givenTo: [alice, bob, carol])])
    }

    @Test("A wrong call gives one card from the top of the caller's stack to the bottom of each other stack, in turn order")
    func wrongSnap() throws {
        var rules = SnapRules.arranged([
            holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦ 5♦ 6♦ 8♦", pile: "9♥"), holding(carol, stack: "4♣"), holding(dave, stack: "5♥"),
        ])
        #expect(try rules.play(.snap, from: bob) == [.wrongSnap(player: bob, givenTo: [carol, dave, alice])])
        #expect(rules.cards(of: bob)?.stack == cards("4♦") && rules.cards(of: bob)?.pile == cards("9♥"))
        #expect(rules.cards(of: carol)?.stack == cards("8♦ 4♣"))
        #expect(rules.cards(of: dave)?.stack == cards("6♦ 5♥"))
        #expect(rules.cards(of: alice)?.stack == cards("5♦ 2♠ 3♠"))
        #expect(rules.heldCards.count == 9)
        #expect(rules.awaited == [alice])
    }

    @Test("A wrong call gives as far as the caller's cards last, the pile's bottom card once the stack is empty; out of cards, the caller is out")
    func wrongSnapRunsOut() throws {
        var rules = SnapRules.arranged([
            holding(alice, stack: "2♠", pile: "3♠ 9♥"), holding(bob, stack: "4♦"), holding(carol, stack: "4♣"), holding(dave, stack: "5♥"),
        ])
        #expect(try rules.play(.snap, from: alice) == [.wrongSnap(player: alice, givenTo: [bob, carol, dave]), .out(player: alice)])
        #expect(rules.cards(of: alice)?.stack == [] && rules.cards(of: alice)?.pile == [])
        #expect(rules.cards(of: bob)?.stack == cards("2♠ 4♦") && rules.cards(of: carol)?.stack == cards("3♠ 4♣"))
        #expect(rules.cards(of: dave)?.stack == cards("9♥ 5♥"))

        rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦"), holding(carol, stack: "4♣"), holding(dave, stack: "5♥")])
        #expect(try rules.play(.snap, from: alice) == [.wrongSnap(player: alice, givenTo: [bob, carol]), .out(player: alice)])
        #expect(rules.cards(of: dave)?.stack == cards("5♥"), "dave gets nothing: alice ran out")
        #expect(rules.awaited == [bob], "alice's turn passes on")
        #expect(rules.roundResult == nil)
    }

    @Test("A player out of cards receives nothing from a wrong call")
    func outReceivesNothing() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob), holding(carol, stack: "4♣")])
        #expect(try rules.play(.snap, from: carol) == [.wrongSnap(player: carol, givenTo: [alice]), .out(player: carol), .won(winner: alice)])
        #expect(rules.view(for: nil).players.map(\.cards) == [3, 0, 0])
    }

    @Test("Holding every card wins the round")
    func winByTaking() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "7♥"), holding(bob, stack: "7♠")])
        try rules.play(.turn, from: alice)
        try rules.play(.turn, from: bob)
        #expect(try rules.play(.snap, from: alice) == [.snapped(player: alice, rank: .seven, cardsTaken: 2), .out(player: bob), .won(winner: alice)])
        #expect(rules.roundResult == RoundResult(winners: [alice]))
        #expect(rules.awaited.isEmpty)
    }
}
