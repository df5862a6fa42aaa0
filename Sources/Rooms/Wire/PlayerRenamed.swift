/// `guessnum.v1.player-renamed` — someone is shown under another name (in a `HistoryBatch`).
public struct PlayerRenamed: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.player-renamed"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// The player under the new name.
    public var player: PlayerRef
    /// The name it had.
    public var previousName: String

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef, previousName: String) {
        self.sequence = sequence
        self.player = player
        self.previousName = previousName
    }
}
