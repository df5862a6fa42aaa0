import Foundation
import Rooms

/// The rules of snap: the deck is dealt round the players; in turn each turns the top card of
/// their face-down stack over onto their own face-up pile; when two face-up piles show the same
/// rank, the first player to call snap takes every pile showing it; whoever holds every card
/// wins the round.
///
/// "First" is the order in which the host hears the calls, which is the order the room applies
/// moves in; late callers are told their place. A call with no pair showing costs the caller a
/// card to each other player (see ``apply(_:from:)`` and the DocC article).
///
/// With fewer than two players the round waits, and the next ``playerJoined(_:)`` deals it; a
/// player who comes in during a round watches until the next. A player whose seat is given up
/// (``playerLeft(_:)``) passes their cards round the others. The player whose turn it is is
/// ``awaited``; when the room's turn time runs out the game turns their card over for them
/// (``timedOut(_:)``), so nobody can stall the round, and nobody loses by it.
///
/// The rules are a value: two are equal when their games stand the same, and they encode to
/// JSON whole, so that a host can keep a room and go on with it (`--resume`).
public struct SnapRules: GameRules, Codable, Hashable {
    public static let kind = GameKind(id: "snap", title: "Snap", messagePrefix: "snap.v1.")

    public let settings: SnapSettings
    public internal(set) var roundResult: RoundResult?
    /// The current round's number; 0 before the first.
    var round = 0
    /// Where the round stands; `next` always names a player of ``hands`` who holds cards.
    var phase = SnapView.Phase.waiting
    /// The players in the room while a round waits for a second one, in arrival order.
    var waitingPlayers: [PlayerRef] = []
    /// The round's players and their cards, in the order of the deal and of turns.
    var hands: [PlayerCards] = []
    /// The pair the latest snap took, until the next card is turned.
    var claimed: ClaimedPair?
    /// The card turned latest this round: of two pairs showing at once, a snap takes its rank.
    var lastTurned: Card?

    /// A game before its first round.
    public init(settings: SnapSettings = SnapSettings()) {
        self.settings = settings
    }

    public mutating func startRound(_ number: Int, players: [PlayerRef]) -> [SnapEvent] {
        round = number
        var seen = Set<UUID>()
        return deal(to: players.filter { seen.insert($0.id).inserted })
    }

    /// A newcomer to a round that waits for a second player makes it start; one who comes in
    /// during a round watches until the next.
    public mutating func playerJoined(_ player: PlayerRef) -> [SnapEvent] {
        guard round > 0, phase == .waiting else { return [] }
        if !waitingPlayers.contains(where: { $0.id == player.id }) { waitingPlayers.append(player) }
        return deal(to: waitingPlayers)
    }

    /// A player of the round who gives up their seat passes their cards, one at a time, under
    /// the face-down stacks of the others who hold cards, in turn order from the player after
    /// them; their turn passes on. When one player is left holding cards, they win.
    public mutating func playerLeft(_ player: PlayerRef) -> [SnapEvent] {
        guard case .playing(let next) = phase else {
            if phase == .waiting { waitingPlayers.removeAll { $0.id == player.id } }
            return []
        }
        guard let index = seat(of: player) else { return [] }
        let cards = hands[index].giveAll()
        let receivers = holders(after: index)
        for (number, card) in cards.enumerated() where !receivers.isEmpty {
            hands[receivers[number % receivers.count]].putUnder(card)
        }
        if next.id == player.id { passTurn(after: index) }
        hands.remove(at: index)
        return (cards.isEmpty ? [] : [.left(player: player, cardsPassedOn: cards.count)]) + endIfOneHoldsAll()
    }

    /// The player whose turn it is, while a round is played.
    public var awaited: [PlayerRef] {
        guard case .playing(let next) = phase else { return [] }
        return [next]
    }

    /// The player whose turn it was did not turn in time: the game turns their card over for
    /// them and play goes on (nobody loses by it).
    public mutating func timedOut(_ players: [PlayerRef]) -> [SnapEvent] {
        guard case .playing(let next) = phase, players.contains(where: { $0.id == next.id }),
              let index = seat(of: next) else { return [] }
        return turnOver(at: index, byTheGame: true)
    }

    public func view(for player: PlayerRef?) -> SnapView {
        let role: SnapView.Role = if let player, let index = seat(of: player) { .playing(seat: index) } else { .watching }
        return SnapView(round: round, phase: phase, players: hands.map(\.seat), role: role)
    }

    /// Deals a shuffled deck to `players`, or waits for a second player.
    private mutating func deal(to players: [PlayerRef]) -> [SnapEvent] {
        guard players.count >= 2 else {
            arrange([], waiting: players)
            return [.waiting(round: round, players: players)]
        }
        var dealt = players.map { PlayerCards(player: $0) }
        for (number, card) in Deck.shuffled(for: round, settings: settings).enumerated() {
            dealt[number % dealt.count].stack.append(card)
        }
        arrange(dealt)
        return [.roundStarted(round: round, players: players)]
    }

    /// Starts play with `hands` as dealt (the first player who holds cards to turn first), or
    /// waits with `waiting` when no hands are given. Tests arrange small tables with it.
    mutating func arrange(_ hands: [PlayerCards], waiting: [PlayerRef] = []) {
        self.hands = hands
        waitingPlayers = waiting
        roundResult = nil
        claimed = nil
        lastTurned = nil
        phase = hands.first(where: \.holdsCards).map { .playing(next: $0.player) } ?? .waiting
    }

    /// Where `player` sits in ``hands``, or nil when they do not play this round.
    func seat(of player: PlayerRef) -> Int? {
        hands.firstIndex { $0.player.id == player.id }
    }

    /// The seats of the other players holding cards, in turn order from the one after `index`.
    func holders(after index: Int) -> [Int] {
        (1..<max(hands.count, 1)).map { (index + $0) % hands.count }.filter { hands[$0].holdsCards }
    }

    /// Gives the turn to the next player after seat `index` who holds cards.
    mutating func passTurn(after index: Int) {
        if let next = holders(after: index).first ?? (hands[index].holdsCards ? index : nil) {
            phase = .playing(next: hands[next].player)
        }
    }

    /// Ends the round when a single player holds every card: the event that says so, if it does.
    mutating func endIfOneHoldsAll() -> [SnapEvent] {
        let holding = hands.filter(\.holdsCards)
        guard case .playing = phase, holding.count == 1, let winner = holding.first?.player else { return [] }
        phase = .won(winner: winner)
        roundResult = RoundResult(winners: [winner])
        return [.won(winner: winner)]
    }
}
