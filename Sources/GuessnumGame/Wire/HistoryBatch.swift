/// `guessnum.v1.history` — everything broadcast during one tick, in order (host → everyone).
///
/// Coalescing keeps a busy game cheap: one message per recipient per tick instead of one per
/// event. A host that must drop guess lines to keep the batch small counts them in
/// ``omittedGuesses`` (they still count in the game and in the history of later welcomes).
public struct HistoryBatch: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.history"
    /// The items, in broadcast order.
    public var items: [HistoryItem]
    /// Guess lines of this tick not included.
    public var omittedGuesses: Int
    /// Players who joined during this tick without a ``HistoryItem/joined(_:)`` item (a big
    /// game lists only a few per tick). Absent on the wire when zero.
    public var omittedJoins: Int
    /// Players who left during this tick without a ``HistoryItem/left(_:)`` item. Absent on
    /// the wire when zero.
    public var omittedLeaves: Int
    /// The number of players after this tick, sent when joins or leaves were omitted.
    public var playerCount: Int?

    /// Creates a batch of `items`, with `omittedGuesses` lines left out.
    public init(items: [HistoryItem], omittedGuesses: Int = 0, omittedJoins: Int = 0, omittedLeaves: Int = 0, playerCount: Int? = nil) {
        self.items = items
        self.omittedGuesses = omittedGuesses
        self.omittedJoins = omittedJoins
        self.omittedLeaves = omittedLeaves
        self.playerCount = playerCount
    }

    private enum CodingKeys: String, CodingKey { case items, omittedGuesses, omittedJoins, omittedLeaves, playerCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([HistoryItem].self, forKey: .items)
        omittedGuesses = try container.decode(Int.self, forKey: .omittedGuesses)
        omittedJoins = try container.decodeIfPresent(Int.self, forKey: .omittedJoins) ?? 0
        omittedLeaves = try container.decodeIfPresent(Int.self, forKey: .omittedLeaves) ?? 0
        playerCount = try container.decodeIfPresent(Int.self, forKey: .playerCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(omittedGuesses, forKey: .omittedGuesses)
        if omittedJoins > 0 { try container.encode(omittedJoins, forKey: .omittedJoins) }
        if omittedLeaves > 0 { try container.encode(omittedLeaves, forKey: .omittedLeaves) }
        try container.encodeIfPresent(playerCount, forKey: .playerCount)
    }

    /// Whether anything is counted rather than listed.
    var hasOmissions: Bool { omittedGuesses > 0 || omittedJoins > 0 || omittedLeaves > 0 }
}
