/// `guessnum.v1.player-left` — someone left or was lost (in a `HistoryBatch`).
public struct PlayerLeft: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-left"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who left.
    public var player: PlayerRef
    /// How many players there are now.
    public var playerCount: Int
    /// `true` when the host removed the player; absent when the player left or was lost.
    public var removedByHost: Bool?

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef, playerCount: Int, removedByHost: Bool = false) {
        self.sequence = sequence
        self.player = player
        self.playerCount = playerCount
        self.removedByHost = removedByHost ? true : nil
    }
}
