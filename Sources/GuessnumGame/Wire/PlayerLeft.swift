/// `guessnum.v1.player-left` — someone left or was lost (in a ``HistoryBatch``).
public struct PlayerLeft: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-left"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who left.
    public var player: PlayerRef
    /// How many players there are now.
    public var playerCount: Int

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef, playerCount: Int) {
        self.sequence = sequence
        self.player = player
        self.playerCount = playerCount
    }
}
