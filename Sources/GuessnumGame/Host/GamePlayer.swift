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
}
