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

    /// Creates a batch of `items`, with `omittedGuesses` lines left out.
    public init(items: [HistoryItem], omittedGuesses: Int = 0) {
        self.items = items
        self.omittedGuesses = omittedGuesses
    }
}
