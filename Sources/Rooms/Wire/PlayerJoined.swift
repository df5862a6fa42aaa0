/// `guessnum.v1.player-joined` — someone joined the game (in a `HistoryBatch`).
public struct PlayerJoined: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-joined"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// The newcomer, under its unique name.
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
