import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("The deal: a shuffled deck, one card at a time round the players", .timeLimit(.minutes(1)))
struct DealTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    @Test("All 52 cards are dealt round-robin in arrival order, and the first player turns first", arguments: [2, 3, 4])
    func roundRobin(count: Int) {
        let players = Array([alice, bob, carol, dave].prefix(count))
        var rules = SnapRules(settings: SnapSettings(seed: 11))
        #expect(rules.startRound(1, players: players) == [.roundStarted(round: 1, players: players)])
        let deck = Deck.shuffled(for: 1, settings: SnapSettings(seed: 11))
        #expect(Set(deck) == Set(Card.deck) && deck.count == 52)
        for (seat, player) in players.enumerated() {
            let expected = deck.indices.filter { $0 % count == seat }.map { deck[$0] }
            #expect(rules.cards(of: player)?.stack == expected, "\(player.name) holds every \(count)th card from the \(seat + 1)th")
            #expect(rules.cards(of: player)?.pile == [])
        }
        let view = rules.view(for: nil)
        #expect(view.players.map(\.player) == players)
        #expect(view.players.map(\.faceDown).reduce(0, +) == 52)
        #expect(view.players.map(\.faceDown) == players.indices.map { 52 / count + ($0 < 52 % count ? 1 : 0) })
        #expect(view.phase == .playing(next: alice) && view.turn == alice)
        #expect(rules.roundResult == nil)
    }

    @Test("A seed shuffles the same way every time; rounds and seeds differ")
    func seeded() {
        let settings = SnapSettings(seed: 42)
        #expect(Deck.shuffled(for: 1, settings: settings) == Deck.shuffled(for: 1, settings: settings))
        #expect(Deck.shuffled(for: 1, settings: settings) != Deck.shuffled(for: 2, settings: settings))
        #expect(Deck.shuffled(for: 1, settings: settings) != Deck.shuffled(for: 1, settings: SnapSettings(seed: 43)))
        #expect(Deck.shuffled(for: 1, settings: settings) != Card.deck)
        let first = SnapRules.dealt([alice, bob], seed: 42), second = SnapRules.dealt([alice, bob], seed: 42)
        #expect(first.hands == second.hands)
    }

    @Test("A seed's deck is pinned: the shuffle does not depend on the standard library")
    func pinned() {
        let deck = Deck.shuffled(for: 1, settings: SnapSettings(seed: 1))
        #expect(deck.prefix(5).map(\.description) == ["9♠", "Q♠", "A♦", "4♣", "A♠"])
    }

    @Test("Without a seed each deal is a full deck, shuffled")
    func unseeded() {
        let decks = (1...3).map { Deck.shuffled(for: $0, settings: SnapSettings()) }
        for deck in decks { #expect(Set(deck) == Set(Card.deck) && deck.count == 52) }
        #expect(Set(decks).count == 3, "three system shuffles of 52 cards do not coincide")
    }

    @Test("One player waits for a second; the next to join starts the deal")
    func waitsForSecond() throws {
        var rules = SnapRules(settings: SnapSettings(seed: 3))
        #expect(rules.startRound(1, players: [alice]) == [.waiting(round: 1, players: [alice])])
        #expect(rules.view(for: alice).phase == .waiting && rules.view(for: alice).players.isEmpty)
        #expect(rules.awaited.isEmpty)
        #expect(throws: MoveRefusal.deckWaitsForSecondPlayer) { try rules.apply(.turn, from: alice) }
        #expect(rules.playerJoined(bob) == [.roundStarted(round: 1, players: [alice, bob])])
        #expect(rules.view(for: bob).role == .playing(seat: 1))
        #expect(rules.awaited == [alice])
    }

    @Test("An empty room waits for two, one at a time; the waiting player leaving leaves it empty")
    func emptyRoom() {
        var rules = SnapRules()
        #expect(rules.startRound(1, players: []) == [.waiting(round: 1, players: [])])
        #expect(rules.playerJoined(alice) == [.waiting(round: 1, players: [alice])])
        #expect(rules.playerLeft(alice) == [])
        #expect(rules.playerJoined(bob) == [.waiting(round: 1, players: [bob])])
        #expect(rules.playerJoined(carol) == [.roundStarted(round: 1, players: [bob, carol])])
    }

    @Test("Joining before the first round starts nothing; joining mid-round means watching until the next")
    func joiners() throws {
        var rules = SnapRules()
        #expect(rules.playerJoined(alice) == [])
        #expect(rules.view(for: nil).round == 0)
        #expect(throws: MoveRefusal.roundOver) { try rules.apply(.snap, from: alice) }
        _ = rules.startRound(1, players: [alice, bob])
        #expect(rules.playerJoined(carol) == [])
        #expect(rules.view(for: carol).role == .watching)
        #expect(throws: MoveRefusal.watching) { try rules.apply(.snap, from: carol) }
        _ = rules.startRound(2, players: [alice, bob, carol])
        #expect(rules.view(for: carol).role == .playing(seat: 2))
    }

    @Test("A player listed twice is dealt to once")
    func duplicates() {
        let rules = SnapRules.dealt([alice, bob, alice])
        #expect(rules.view(for: nil).players.map(\.player) == [alice, bob])
        #expect(rules.view(for: nil).players.map(\.faceDown) == [26, 26])
    }
}
