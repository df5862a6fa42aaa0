import Rooms

/// What the game tells everyone in the room.
///
/// On the wire an event is an object with one key, the case, holding its fields; players are
/// `{"id": "<UUID>", "name": "bob"}`, cards are text (`"7♥"`) and ranks numbers (11 for jacks):
///
/// - `{"waiting": {"round": 1, "players": [{…}]}}`
/// - `{"roundStarted": {"round": 2, "players": [{…}, {…}]}}`
/// - `{"turned": {"player": {…}, "card": "7♥"}}`
/// - `{"pileTurnedOver": {"player": {…}}}`
/// - `{"snapped": {"player": {…}, "rank": 7, "cardsTaken": 6}}`
/// - `{"tooLate": {"player": {…}, "position": 2, "after": {…}}}`
/// - `{"wrongSnap": {"player": {…}, "givenTo": [{…}, {…}]}}`
/// - `{"out": {"player": {…}}}`
/// - `{"outOfTime": {"player": {…}, "card": "Q♦"}}`
/// - `{"left": {"player": {…}, "cardsPassedOn": 12}}`
/// - `{"won": {"winner": {…}}}`
public enum SnapEvent: Sendable, Hashable, Codable {
    /// Round `round` waits for a second player; `players` are those already there (none or one).
    case waiting(round: Int, players: [PlayerRef])
    /// Round `round` began: the deck was dealt to `players` in this order (the order they came
    /// into the room), which is also the order of turns; the first turns first.
    case roundStarted(round: Int, players: [PlayerRef])
    /// `player` turned `card` over onto their face-up pile.
    case turned(player: PlayerRef, card: Card)
    /// `player`'s face-down stack ran out on their turn, so their face-up pile was turned over to
    /// be their stack again.
    case pileTurnedOver(player: PlayerRef)
    /// `player` called snap first on a pair of `rank` and took `cardsTaken` cards: every face-up
    /// pile showing that rank.
    case snapped(player: PlayerRef, rank: Card.Rank, cardsTaken: Int)
    /// `player` called snap after `after` had taken the pair, the `position`th to call (2 for the
    /// second): no card has been turned since, so it costs nothing.
    case tooLate(player: PlayerRef, position: Int, after: PlayerRef)
    /// `player` called snap with no pair showing and gave a card to each of `givenTo`, the other
    /// players holding cards, in turn order, as far as their cards lasted.
    case wrongSnap(player: PlayerRef, givenTo: [PlayerRef])
    /// `player` holds no cards any more and is out of the round.
    case out(player: PlayerRef)
    /// `player` did not turn within the room's turn time, so the game turned `card` over for them.
    case outOfTime(player: PlayerRef, card: Card)
    /// `player` gave up their seat during the round; their `cardsPassedOn` cards went round the
    /// other players, under their face-down stacks.
    case left(player: PlayerRef, cardsPassedOn: Int)
    /// `winner` holds every card: the round is over.
    case won(winner: PlayerRef)
}
