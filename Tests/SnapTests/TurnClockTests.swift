import Foundation
import Rooms
import Testing

@testable import Snap

/// The player whose turn it is is waited for; one who does not turn in time has their card turned for them.
@Suite("Snap against the turn clock", .timeLimit(.minutes(1)))
struct SnapTurnClockTests {
    let alice = Players.alice, bob = Players.bob

    @Test("The player whose turn it is is awaited; out of time, the game turns their card and play goes on")
    func outOfTime() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦ 5♦")])
        #expect(rules.awaited == [alice])
        #expect(rules.timedOut([bob]).isEmpty, "not the one to turn: nothing happens")
        #expect(rules.timedOut([alice]) == [.outOfTime(player: alice, card: Card(.three, .spades))])
        #expect(rules.cards(of: alice)?.pile == cards("3♠"))
        #expect(rules.awaited == [bob] && rules.roundResult == nil)
        #expect(SnapText.sentence(for: .outOfTime(player: alice, card: Card(.three, .spades))) == "The game turned alice's card, 3♠: alice took too long.")
    }

    @Test("Out of time with an empty stack, the pile is turned over first")
    func outOfTimeRecycles() {
        var rules = SnapRules.arranged([holding(alice, pile: "2♠ 3♠"), holding(bob, stack: "4♦")])
        #expect(rules.timedOut([alice]) == [.pileTurnedOver(player: alice), .outOfTime(player: alice, card: Card(.two, .spades))])
    }

    @Test("A turned card by the game can be snapped like any other")
    func snapAfterTimeout() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 7♥"), holding(bob, stack: "4♦ 7♠")])
        _ = rules.timedOut([alice])
        _ = rules.timedOut([bob])
        #expect(try rules.play(.snap, from: bob) == [.snapped(player: bob, rank: .seven, cardsTaken: 2)])
    }

    @Test("A round waiting for a second player, or over, waits for nobody")
    func nobodyAwaited() {
        var rules = SnapRules()
        #expect(rules.awaited.isEmpty)
        _ = rules.startRound(1, players: [alice])
        #expect(rules.awaited.isEmpty)
        #expect(rules.timedOut([alice]).isEmpty)
    }
}
