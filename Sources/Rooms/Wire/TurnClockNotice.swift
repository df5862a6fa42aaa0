/// `guessnum.v1.turn-clock` — a player the game waits for (their turn, their choice, their
/// reveal) has little time left: when ``secondsLeft`` have passed without their move, the game
/// decides for them by its rule (in a room's batch; tic-tac-toe's and rock-paper-scissors'
/// rooms). A program that does not know the type skips it.
public struct TurnClockNotice: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.turn-clock"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who is waited for.
    public var player: PlayerRef
    /// How long they have left, in whole seconds.
    public var secondsLeft: Int

    /// Creates the message.
    public init(sequence: UInt64, player: PlayerRef, secondsLeft: Int) {
        self.sequence = sequence
        self.player = player
        self.secondsLeft = secondsLeft
    }
}
