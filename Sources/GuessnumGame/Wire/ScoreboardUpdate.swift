/// `guessnum.v1.scoreboard` — the top of the scoreboard, after each round (in a
/// ``HistoryBatch``, and in the ``WelcomeMessage``).
public struct ScoreboardUpdate: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.scoreboard"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// The best entries, best first.
    public var entries: [Scoreboard.Entry]
    /// How many players have a score, shown or not.
    public var totalEntries: Int

    /// Creates the message.
    public init(sequence: UInt64, entries: [Scoreboard.Entry], totalEntries: Int) {
        self.sequence = sequence
        self.entries = entries
        self.totalEntries = totalEntries
    }
}
