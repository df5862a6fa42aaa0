import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("Turning cards over, in turn", .timeLimit(.minutes(1)))
struct TurnTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    @Test("Each turns their top card onto their own pile, in deal order, round and round")
    func inTurn() throws {
        var rules = SnapRules.arranged([
            holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦ 5♦"), holding(carol, stack: "6♣ 8♣"),
        ])
        #expect(try rules.play(.turn, from: alice) == [.turned(player: alice, card: Card(.three, .spades))])
        #expect(rules.awaited == [bob])
        #expect(try rules.play(.turn, from: bob) == [.turned(player: bob, card: Card(.five, .diamonds))])
        #expect(try rules.play(.turn, from: carol) == [.turned(player: carol, card: Card(.eight, .clubs))])
        #expect(rules.awaited == [alice])
        #expect(try rules.play(.turn, from: alice) == [.turned(player: alice, card: Card(.two, .spades))])
        #expect(rules.cards(of: alice)?.pile == cards("3♠ 2♠") && rules.cards(of: alice)?.stack == [])
        let view = rules.view(for: nil)
        #expect(view.players.map(\.top) == [Card(.two, .spades), Card(.five, .diamonds), Card(.eight, .clubs)])
        #expect(view.players.map(\.faceUp) == [2, 1, 1] && view.players.map(\.faceDown) == [0, 1, 1])
    }

    @Test("Turning out of turn is refused and changes nothing, whoever tries")
    func notYourTurn() throws {
        var rules = SnapRules.dealt([alice, bob, carol])
        let before = rules
        #expect(throws: MoveRefusal.notYourTurnToTurnOver) { try rules.apply(.turn, from: bob) }
        #expect(throws: MoveRefusal.notYourTurnToTurnOver) { try rules.apply(.turn, from: carol) }
        #expect(rules == before)
        try rules.play(.turn, from: alice)
        let after = rules
        #expect(throws: MoveRefusal.notYourTurnToTurnOver) { try rules.apply(.turn, from: alice) }
        #expect(rules == after)
    }

    @Test("Watchers, strangers and players out of cards may not move; nobody may after the round")
    func refusals() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦"), holding(carol)])
        let before = rules
        #expect(throws: MoveRefusal.watching) { try rules.apply(.turn, from: dave) }
        #expect(throws: MoveRefusal.watching) { try rules.apply(.snap, from: dave) }
        #expect(throws: MoveRefusal.outOfCards) { try rules.apply(.snap, from: carol) }
        #expect(throws: MoveRefusal.outOfCards) { try rules.apply(.turn, from: carol) }
        #expect(rules == before)
        try rules.play(.turn, from: alice)
        try rules.play(.turn, from: bob)
        try rules.play(.snap, from: alice)  // 3♠ and 4♦: no pair, so alice's 2♠ goes to bob
        #expect(rules.roundResult == nil)
        try rules.play(.snap, from: alice)  // still none: her last card, the 3♠ at the pile's bottom, goes too
        #expect(rules.roundResult == RoundResult(winners: [bob]))
        #expect(throws: MoveRefusal.roundOver) { try rules.apply(.turn, from: bob) }
        #expect(throws: MoveRefusal.roundOver) { try rules.apply(.snap, from: alice) }
    }

    @Test("A player whose stack ran out turns their pile over first, then turns its bottom card")
    func pileTurnedOver() throws {
        var rules = SnapRules.arranged([holding(alice, pile: "2♠ 3♠ 9♥"), holding(bob, stack: "4♦ 5♦")])
        #expect(try rules.play(.turn, from: alice) == [.pileTurnedOver(player: alice), .turned(player: alice, card: Card(.two, .spades))])
        #expect(rules.cards(of: alice)?.stack == cards("9♥ 3♠") && rules.cards(of: alice)?.pile == cards("2♠"))
        try rules.play(.turn, from: bob)
        #expect(try rules.play(.turn, from: alice) == [.turned(player: alice, card: Card(.three, .spades))])
    }

    @Test("A player holding no cards is out: the turn skips them")
    func outIsSkipped() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob), holding(carol, stack: "4♦ 5♦")])
        #expect(rules.view(for: bob).mySeat?.cards == 0)
        try rules.play(.turn, from: alice)
        #expect(rules.awaited == [carol])
        try rules.play(.turn, from: carol)
        #expect(rules.awaited == [alice])
    }

    @Test("The first player to hold cards turns first")
    func firstHolderFirst() {
        let rules = SnapRules.arranged([holding(alice), holding(bob, stack: "2♠"), holding(carol, stack: "3♠")])
        #expect(rules.awaited == [bob])
    }
}
