import Rooms

/// What the rules tell everyone in the room.
///
/// No event names a hand of a throw until both players have revealed it: ``committed(player:)``,
/// ``bothCommitted(throwNumber:commitments:)`` and ``revealed(player:)`` say who has done what,
/// never what. On the wire an event is one key naming the case, holding its labelled values:
/// `{"committed": {"player": {"id": "…", "name": "alice"}}}`,
/// `{"throwRevealed": {"result": {"throwNumber": 1, "hands": […], "winner": {…}, "score": […]}}}`.
public enum RPSEvent: Sendable, Hashable, Codable {
    /// Match `number` (the room's round) began between `players`, the best of `bestOf` throws.
    case matchStarted(number: Int, players: [PlayerRef], bestOf: Int)
    /// Match `number` cannot begin until a second player comes in.
    case waitingForSecondPlayer(number: Int)
    /// `player` sealed a hand for the current throw.
    case committed(player: PlayerRef)
    /// Both players have sealed throw `throwNumber`: reveal now. The commitments are published so
    /// that everyone can check the reveals against them.
    case bothCommitted(throwNumber: Int, commitments: [PlayerCommitment])
    /// `player` revealed; the host holds the opening until the other player's is in.
    case revealed(player: PlayerRef)
    /// Both reveals are in: the hands, their salts, who took the throw, the score.
    case throwRevealed(result: ThrowResult)
    /// `winner` took enough throws; `score` is the final one.
    case matchWon(winner: PlayerRef, score: [SeatScore])
    /// `leaver` gave up their seat mid-match, so `winner` wins it.
    case forfeit(leaver: PlayerRef, winner: PlayerRef, score: [SeatScore])
    /// `player` did not choose (or reveal) within the room's turn time, so the other player
    /// takes the throw; `score` is the match's after it. A ``matchWon(winner:score:)`` follows
    /// when that decides the match.
    case outOfTime(player: PlayerRef, score: [SeatScore])
    /// Neither player chose (or revealed) within the room's turn time: the match ends without
    /// a winner.
    case abandoned(players: [PlayerRef], score: [SeatScore])
}

/// One player's commitment to a throw. On the wire `{"player": {…}, "commitment": "<64 hex>"}`.
public struct PlayerCommitment: Sendable, Hashable, Codable {
    /// Who committed.
    public let player: PlayerRef
    /// What they committed to.
    public let commitment: HandCommitment
}

/// One player's opened hand. On the wire `{"player": {…}, "hand": "rock", "salt": "<64 hex>"}`.
public struct RevealedHand: Sendable, Hashable, Codable {
    /// Who threw it.
    public let player: PlayerRef
    /// The hand thrown.
    public let hand: Hand
    /// The salt that opens the player's ``PlayerCommitment``.
    public let salt: HandSalt
}

/// A player's throws won so far in the match. On the wire `{"player": {…}, "wins": 2}`.
public struct SeatScore: Sendable, Hashable, Codable {
    /// The player.
    public let player: PlayerRef
    /// Throws they have won.
    public let wins: Int
}

/// How one throw went. On the wire
/// `{"throwNumber": 2, "hands": [RevealedHand, RevealedHand], "winner": PlayerRef or absent, "score": [SeatScore, SeatScore]}`.
public struct ThrowResult: Sendable, Hashable, Codable {
    /// The throw's number in the match, from 1; tied throws count here too.
    public let throwNumber: Int
    /// Both hands, in seat order.
    public let hands: [RevealedHand]
    /// Who took the throw; nil for a tie.
    public let winner: PlayerRef?
    /// The match score after the throw, in seat order.
    public let score: [SeatScore]
}
