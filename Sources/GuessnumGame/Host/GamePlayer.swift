import Multipeer

/// A player as the host's snapshot shows it.
public struct GamePlayer: Sendable, Hashable {
    /// The player under its unique name.
    public let player: PlayerRef
    /// Its peer in the session.
    public let peer: PeerID
    /// Counted guesses in the current round.
    public let guessesThisRound: Int
    /// Rounds won.
    public let wins: Int
    /// Since when the player's link is down while the host holds their seat; nil while
    /// connected.
    public let awaySince: ContinuousClock.Instant?

    /// Whether the player's link is down while the host holds their seat.
    public var isAway: Bool { awaySince != nil }
}
