import Rooms

/// What one person in the room sees of the game: every player's face-down count, and their
/// face-up pile's size and top card. Nobody sees a face-down card, so every view of a moment is
/// the same but for ``role``.
///
/// On the wire: `{"round": 2, "phase": {"playing": {"next": {…}}}, "players": [{"player": {…},
/// "faceDown": 20, "faceUp": 3, "top": "7♥"}, …], "role": {"playing": {"seat": 0}}}`; `top` is
/// left out for an empty pile.
public struct SnapView: Sendable, Hashable, Codable {
    /// The round's number; 0 before the first.
    public var round: Int
    /// Where the round stands.
    public var phase: Phase
    /// The round's players in the order of the deal and of turns; empty while no deck is dealt.
    public var players: [Seat]
    /// What the viewer does this round.
    public var role: Role

    /// Where a round stands.
    ///
    /// On the wire: `{"waiting": {}}`, `{"playing": {"next": {…}}}`, `{"won": {"winner": {…}}}`.
    public enum Phase: Sendable, Hashable, Codable {
        /// No deck is dealt: before the first round, or a round waiting for a second player.
        case waiting
        /// The round goes on and `next` is to turn a card over.
        case playing(next: PlayerRef)
        /// `winner` holds every card.
        case won(winner: PlayerRef)
    }

    /// One player's cards as everyone sees them.
    public struct Seat: Sendable, Hashable, Codable {
        /// The player.
        public var player: PlayerRef
        /// How many cards lie face down in their stack.
        public var faceDown: Int
        /// How many cards lie face up in their pile.
        public var faceUp: Int
        /// The card on top of their face-up pile, nil while it is empty.
        public var top: Card?

        /// A seat as shown.
        public init(player: PlayerRef, faceDown: Int, faceUp: Int, top: Card?) {
            self.player = player
            self.faceDown = faceDown
            self.faceUp = faceUp
            self.top = top
        }

        /// How many cards the player holds; none: they are out of the round.
        public var cards: Int { faceDown + faceUp }
    }

    /// What someone does in a round.
    ///
    /// On the wire: `{"playing": {"seat": 0}}`, `{"watching": {}}`.
    public enum Role: Sendable, Hashable, Codable {
        /// Plays this round, as ``SnapView/players``[`seat`].
        case playing(seat: Int)
        /// Is not among this round's players.
        case watching
    }

    /// The viewer's seat, when they play this round.
    public var mySeat: Seat? {
        guard case .playing(let seat) = role, players.indices.contains(seat) else { return nil }
        return players[seat]
    }

    /// Whose turn it is, or nil when nobody is to turn.
    public var turn: PlayerRef? {
        guard case .playing(let next) = phase else { return nil }
        return next
    }

    /// Whether the viewer is the one to turn a card over.
    public var isMyTurn: Bool {
        guard let turn, let me = mySeat?.player else { return false }
        return turn.id == me.id
    }
}
