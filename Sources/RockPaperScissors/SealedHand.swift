/// A player's side of one throw: the chosen hand, its fresh salt and the commitment to both,
/// kept by the player's program from the commit until the reveal.
///
/// Send ``commitMove`` first; when the match says both have chosen, send ``revealMove``. Never
/// send the salt before then: with it, anyone can read the hand out of the commitment.
public struct SealedHand: Sendable, Hashable, Codable {
    /// The hand chosen.
    public let hand: Hand
    /// The salt that hides it.
    public let salt: HandSalt
    /// The commitment to ``hand`` and ``salt``.
    public let commitment: HandCommitment

    /// Seals `hand` with a fresh salt from `SystemRandomNumberGenerator`.
    public init(hand: Hand) {
        var generator = SystemRandomNumberGenerator()
        self.init(hand: hand, using: &generator)
    }

    /// Seals `hand` with a salt drawn from `generator`.
    public init(hand: Hand, using generator: inout some RandomNumberGenerator) {
        self.hand = hand
        salt = HandSalt.random(using: &generator)
        commitment = HandCommitment(hand: hand, salt: salt)
    }

    /// The move that commits to the hand.
    public var commitMove: RPSMove { .commit(digest: commitment.rawValue) }

    /// The move that opens the commitment.
    public var revealMove: RPSMove { .reveal(hand: hand, salt: salt.rawValue) }
}
