/// `guessnum.v1.player-away` — a player's link dropped; the host holds their seat (name, wins,
/// guesses this round) for ``Rooms/RoomConfiguration/awayGracePeriod`` (in a `HistoryBatch`). A
/// ``PlayerBack`` follows if they come back in time, a ``PlayerLeft`` if not.
public struct PlayerAway: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-away"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who is away.
    public var player: PlayerRef
    /// How long the seat is held, in whole seconds.
    public var holdSeconds: Int

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef, holdSeconds: Int) {
        self.sequence = sequence
        self.player = player
        self.holdSeconds = holdSeconds
    }
}

/// `guessnum.v1.player-back` — a player who was away is back in their seat (in a
/// `HistoryBatch`).
public struct PlayerBack: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-back"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who is back, under the name they had.
    public var player: PlayerRef

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef) {
        self.sequence = sequence
        self.player = player
    }
}
