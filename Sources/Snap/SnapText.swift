import Rooms

/// Snap as text for a terminal: pure functions, no I/O. Names go through
/// `PlayerRef.displayText`, so nothing a player typed can act on the terminal; cards read as
/// `7♥`, `10♠`, `Q♦`, `A♣`.
public enum SnapText {
    /// One sentence for an event: "alice turned 7♥.", "bob called snap first on the 7s and takes
    /// 6 cards.", "carol called snap too, 2nd after bob."
    public static func sentence(for event: SnapEvent) -> String {
        switch event {
        case .waiting(let round, let players) where players.isEmpty:
            "Round \(round) waits for two players."
        case .waiting(let round, let players):
            "Round \(round) waits for a second player to join \(list(players))."
        case .roundStarted(let round, let players):
            "Round \(round): the deck is dealt to \(list(players)), in the order they arrived; \(players.first?.displayText ?? "nobody") turns first."
        case .turned(let player, let card):
            "\(player.displayText) turned \(card)."
        case .pileTurnedOver(let player):
            "\(player.displayText) turned their face-up pile over to make a new stack."
        case .snapped(let player, let rank, let cardsTaken):
            "\(player.displayText) called snap first on the \(rank.plural) and takes \(cards(cardsTaken))."
        case .tooLate(let player, let position, let after):
            "\(player.displayText) called snap too, \(ordinal(position)) after \(after.displayText)."
        case .wrongSnap(let player, let givenTo):
            "\(player.displayText) called snap with no pair showing" + penalty(givenTo)
        case .out(let player):
            "\(player.displayText) has no cards left and is out of the round."
        case .outOfTime(let player, let card):
            "The game turned \(player.displayText)'s card, \(card): \(player.displayText) took too long."
        case .left(let player, let cardsPassedOn):
            "\(player.displayText) left: \(cardsPassedOn == 1 ? "their card goes" : "their \(cardsPassedOn) cards go") under the others' stacks."
        case .won(let winner):
            "\(winner.displayText) holds every card and wins the round."
        }
    }

    /// One line saying where the round stands for the viewer: "Round 2: bob's turn.",
    /// "Round 2: your turn to turn a card over.", "Round 2: alice won, holding every card. You are
    /// watching."
    public static func status(of view: SnapView) -> String {
        let heading = "Round \(view.round): "
        let state = switch view.phase {
        case .waiting: view.round == 0 ? "No round has started yet." : "Round \(view.round) waits for a second player."
        case .playing where view.isMyTurn: heading + "your turn to turn a card over."
        case .playing(let next): heading + "\(next.displayText)'s turn."
        case .won(let winner): heading + "\(winner.displayText) won, holding every card."
        }
        let role = switch view.role {
        case .watching where view.phase != .waiting: " You are watching."
        case .playing where view.mySeat?.cards == 0: " You are out of cards."
        default: ""
        }
        return state + role
    }

    /// The piles in one line, in turn order: each player's top card and how many cards they
    /// hold. "Piles: alice 7♥ (holds 15), bob nothing showing (holds 20), carol out."
    public static func piles(of view: SnapView) -> String {
        let seats = view.players.map { seat in
            guard seat.cards > 0 else { return "\(seat.player.displayText) out" }
            return "\(seat.player.displayText) \(seat.top?.description ?? "nothing showing") (holds \(seat.cards))"
        }
        return "Piles: " + seats.joined(separator: ", ") + "."
    }

    /// The table: the status line, then one line per player in turn order
    /// ("  alice (you): 12 face down, 3 face up, 7♥ on top").
    public static func table(of view: SnapView) -> [String] {
        let me = view.mySeat?.player.id
        return [status(of: view)] + view.players.map { seat in
            let name = seat.player.displayText + (seat.player.id == me ? " (you)" : "")
            guard seat.cards > 0 else { return "  \(name): out of cards" }
            let top = seat.top.map { ", \($0) on top" } ?? ""
            return "  \(name): \(seat.faceDown) face down, \(seat.faceUp) face up\(top)"
        }
    }

    /// "1st", "2nd", "3rd", "4th", "11th", "22nd".
    static func ordinal(_ number: Int) -> String {
        let suffix = switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
        return "\(number)\(suffix)"
    }

    private static func penalty(_ givenTo: [PlayerRef]) -> String {
        switch givenTo.count {
        case 0: "."
        case 1: " and gives a card to \(list(givenTo))."
        default: " and gives a card each to \(list(givenTo))."
        }
    }

    private static func cards(_ count: Int) -> String {
        count == 1 ? "1 card" : "\(count) cards"
    }

    /// "alice", "alice and bob", "alice, bob and carol".
    private static func list(_ players: [PlayerRef]) -> String {
        let names = players.map(\.displayText)
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
