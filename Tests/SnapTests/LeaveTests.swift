import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("A player giving up their seat mid-round", .timeLimit(.minutes(1)))
struct LeaveTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    @Test("The leaver's cards go one at a time under the others' stacks, in turn order from the player after them")
    func cardsPassedOn() throws {
        var rules = SnapRules.arranged([
            holding(alice, stack: "2♠"), holding(bob, stack: "3♠ 4♠", pile: "5♠ 6♠ 7♠"), holding(carol, stack: "2♦"), holding(dave),
        ])
        #expect(rules.playerLeft(bob) == [.left(player: bob, cardsPassedOn: 5)])
        #expect(rules.cards(of: bob) == nil)
        #expect(rules.view(for: nil).players.map(\.player) == [alice, carol, dave])
        #expect(rules.cards(of: carol)?.stack == cards("7♠ 5♠ 4♠ 2♦"), "carol, next after bob, gets the 1st, 3rd and 5th card: 4♠, 5♠, 7♠")
        #expect(rules.cards(of: alice)?.stack == cards("6♠ 3♠ 2♠"), "the stack's top, 4♠, went first; then the pile from its bottom")
        #expect(rules.cards(of: dave)?.stack == [], "dave is out and receives nothing")
        #expect(rules.heldCards.count == 7)
        #expect(rules.awaited == [alice] && rules.roundResult == nil)
    }

    @Test("The leaver's turn passes to the next player holding cards")
    func turnPasses() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠"), holding(bob, stack: "3♠"), holding(carol), holding(dave, stack: "2♦")])
        try rules.play(.turn, from: alice)
        #expect(rules.awaited == [bob])
        _ = rules.playerLeft(bob)
        #expect(rules.awaited == [dave])
    }

    @Test("With one player left holding cards, they win", arguments: [true, false])
    func lastOneWins(leaverHasTurn: Bool) {
        var rules = SnapRules.dealt([alice, bob])
        let (leaver, winner) = leaverHasTurn ? (alice, bob) : (bob, alice)
        #expect(rules.playerLeft(leaver) == [.left(player: leaver, cardsPassedOn: 26), .won(winner: winner)])
        #expect(rules.roundResult == RoundResult(winners: [winner]))
        #expect(rules.view(for: winner).players.map(\.cards) == [52])
        #expect(rules.view(for: winner).phase == .won(winner: winner))
        #expect(rules.awaited.isEmpty)
    }

    @Test("A watcher, a player out of cards, or anyone after the round leaving changes no cards")
    func quietLeaves() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠"), holding(bob, stack: "3♠"), holding(carol)])
        #expect(rules.playerLeft(dave) == [])
        #expect(rules.playerLeft(carol) == [])
        #expect(rules.view(for: nil).players.map(\.player) == [alice, bob])
        #expect(rules.heldCards.count == 2)
        rules = SnapRules.arranged([holding(alice, stack: "7♥"), holding(bob, stack: "7♠")])
        try rules.play(.turn, from: alice)
        try rules.play(.turn, from: bob)
        try rules.play(.snap, from: bob)
        let over = rules
        #expect(rules.playerLeft(alice) == [] && rules.playerLeft(bob) == [])
        #expect(rules == over)
    }
}
