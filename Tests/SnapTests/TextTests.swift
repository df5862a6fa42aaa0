import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("Snap as terminal text", .timeLimit(.minutes(1)))
struct TextTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    @Test("Cards read as rank and suit symbol, and read back")
    func cardNames() {
        #expect(Card(.seven, .hearts).description == "7♥")
        #expect(Card(.ten, .spades).description == "10♠")
        #expect(Card(.queen, .diamonds).description == "Q♦")
        #expect(Card(.ace, .clubs).description == "A♣")
        for card in Card.deck { #expect(Card(card.description) == card) }
        for text in ["", "7", "♥", "1♥", "11♥", "7H", "7♥♥", "B♠"] { #expect(Card(text) == nil, "\(text)") }
        #expect(Card.deck.count == 52 && Set(Card.deck).count == 52)
    }

    @Test("Each event is one sentence")
    func sentences() {
        let cases: [(SnapEvent, String)] = [
            (.waiting(round: 1, players: []), "Round 1 waits for two players."),
            (.waiting(round: 1, players: [alice]), "Round 1 waits for a second player to join alice."),
            (.roundStarted(round: 2, players: [alice, bob, carol]), "Round 2: the deck is dealt to alice, bob and carol, in the order they arrived; alice turns first."),
            (.roundStarted(round: 1, players: [bob, alice]), "Round 1: the deck is dealt to bob and alice, in the order they arrived; bob turns first."),
            (.turned(player: alice, card: Card(.ten, .hearts)), "alice turned 10♥."),
            (.pileTurnedOver(player: bob), "bob turned their face-up pile over to make a new stack."),
            (.snapped(player: bob, rank: .seven, cardsTaken: 6), "bob called snap first on the 7s and takes 6 cards."),
            (.snapped(player: bob, rank: .queen, cardsTaken: 2), "bob called snap first on the queens and takes 2 cards."),
            (.tooLate(player: carol, position: 2, after: bob), "carol called snap too, 2nd after bob."),
            (.tooLate(player: dave, position: 3, after: bob), "dave called snap too, 3rd after bob."),
            (.wrongSnap(player: dave, givenTo: [alice, bob, carol]), "dave called snap with no pair showing and gives a card each to alice, bob and carol."),
            (.wrongSnap(player: dave, givenTo: [alice]), "dave called snap with no pair showing and gives a card to alice."),
            (.out(player: dave), "dave has no cards left and is out of the round."),
            (.outOfTime(player: alice, card: Card(.queen, .diamonds)), "The game turned alice's card, Q♦: alice took too long."),
            (.left(player: carol, cardsPassedOn: 12), "carol left: their 12 cards go under the others' stacks."),
            (.left(player: carol, cardsPassedOn: 1), "carol left: their card goes under the others' stacks."),
            (.won(winner: bob), "bob holds every card and wins the round."),
        ]
        for (event, sentence) in cases { #expect(SnapText.sentence(for: event) == sentence) }
    }

    @Test("Places read as ordinals", arguments: [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd"), (103, "103rd"), (111, "111th")])
    func ordinals(number: Int, text: String) {
        #expect(SnapText.ordinal(number) == text)
    }

    @Test("Names cannot act on the terminal")
    func hostileName() {
        let eve = PlayerRef(id: UUID(), name: "eve\u{1B}[2J\n")
        let sentence = SnapText.sentence(for: .tooLate(player: eve, position: 2, after: eve))
        #expect(!sentence.contains("\u{1B}") && !sentence.contains("\n"))
        #expect(sentence.hasPrefix("eve\u{FFFD}"))
    }

    @Test("The status line says where the round stands, to each viewer")
    func status() throws {
        var rules = SnapRules()
        #expect(SnapText.status(of: rules.view(for: alice)) == "No round has started yet.")
        _ = rules.startRound(1, players: [alice])
        #expect(SnapText.status(of: rules.view(for: alice)) == "Round 1 waits for a second player.")
        rules = SnapRules.arranged([holding(alice, stack: "7♥"), holding(bob, stack: "7♠"), holding(carol)])
        #expect(SnapText.status(of: rules.view(for: alice)) == "Round 1: your turn to turn a card over.")
        #expect(SnapText.status(of: rules.view(for: bob)) == "Round 1: alice's turn.")
        #expect(SnapText.status(of: rules.view(for: carol)) == "Round 1: alice's turn. You are out of cards.")
        #expect(SnapText.status(of: rules.view(for: dave)) == "Round 1: alice's turn. You are watching.")
        try rules.play(.turn, from: alice)
        try rules.play(.turn, from: bob)
        try rules.play(.snap, from: bob)
        #expect(SnapText.status(of: rules.view(for: alice)) == "Round 1: bob won, holding every card. You are out of cards.")
        #expect(SnapText.piles(of: rules.view(for: nil)) == "Piles: alice out, bob nothing showing (holds 2), carol out.")
    }
}
