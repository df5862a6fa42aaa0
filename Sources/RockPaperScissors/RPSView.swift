import Rooms

/// What one player, or a watcher, sees of the match.
///
/// It never holds a hand of the throw in progress: only whether each player has committed and
/// revealed. On the wire: `{"match": 1, "bestOf": 3, "phase": "playing", "seats": [SeatView…],
/// "throwNumber": 2, "lastThrow": ThrowResult or absent, "winner": PlayerRef or absent,
/// "role": "player", "next": "commit"}`.
public struct RPSView: Sendable, Hashable, Codable {
    /// Where the match stands.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// No match has been started yet.
        case notStarted
        /// The match waits for a second player.
        case waitingForPlayers
        /// Throws are being played.
        case playing
        /// The match has a winner.
        case over
    }

    /// Whether the viewer plays in this match.
    public enum Role: String, Sendable, Hashable, Codable {
        /// One of the match's two players.
        case player
        /// Anyone else.
        case watcher
    }

    /// What the viewer should do now.
    public enum NextStep: String, Sendable, Hashable, Codable {
        /// Choose a hand and send its commitment.
        case commit
        /// Both have chosen: send the hand and salt.
        case reveal
        /// Nothing to send until the other player, or the next match, moves.
        case wait
        /// Watch the two players.
        case watch
    }

    /// One seat of the match. On the wire `{"player": {…}, "wins": 1, "committed": true, "revealed": false}`.
    public struct Seat: Sendable, Hashable, Codable {
        /// Who sits here.
        public let player: PlayerRef
        /// Throws won so far.
        public let wins: Int
        /// Whether they have sealed the current throw.
        public let committed: Bool
        /// Whether they have revealed the current throw (the hand stays hidden until both have).
        public let revealed: Bool
    }

    /// The match's number (the room's round), nil before the first.
    public let match: Int?
    /// The number of throws the match is the best of.
    public let bestOf: Int
    /// Where the match stands.
    public let phase: Phase
    /// The two players, empty while no match is played.
    public let seats: [Seat]
    /// The throw being played (or the last one, once the match is over), from 1.
    public let throwNumber: Int
    /// The last throw both players revealed, if any.
    public let lastThrow: ThrowResult?
    /// Who won the match, once it is over.
    public let winner: PlayerRef?
    /// The viewer's role.
    public let role: Role
    /// What the viewer should do next.
    public let next: NextStep
}
