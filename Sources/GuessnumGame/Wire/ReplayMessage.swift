/// `guessnum.v1.replay` — what a guest missed (host → one guest that came back after a drop):
/// every broadcast item numbered after ``after``, in order, as the others received them in
/// ``HistoryBatch``es. The guest takes them in as if they had come live, so its screen, its
/// history and its fairness checks are as if the link had never dropped.
///
/// The host keeps the last ``Rooms/RoomConfiguration/replayLimit`` items for this; a guest that missed
/// more, or more than one frame holds, gets a fresh ``WelcomeMessage`` instead.
public struct ReplayMessage: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.replay"
    /// The sequence number of the last item the guest had.
    public var after: UInt64
    /// The items numbered after ``after``, in order (none when nothing happened meanwhile).
    public var items: [HistoryItem]

    /// A replay of `items`, which came after `after`.
    public init(after: UInt64, items: [HistoryItem]) {
        self.after = after
        self.items = items
    }
}

/// A guest that came back after a drop has been caught up: by a ``ReplayMessage`` of `missed`
/// items (posted just before them), or by a fresh welcome when the host no longer kept them
/// (`missed` nil: how many is unknown beyond ``skipped``).
public struct CaughtUp: Sendable, Hashable, Codable {
    /// How many of the replayed items the guest reads as news (not its own chat, absence or
    /// return, nor score updates); nil when a welcome replaced the replay.
    public var missed: Int?
    /// How many broadcast items were numbered between what the guest had and what the welcome
    /// includes, when a welcome replaced the replay.
    public var skipped: UInt64?

    /// Caught up by a replay of `missed` items, or by a welcome that `skipped` items.
    public init(missed: Int? = nil, skipped: UInt64? = nil) {
        self.missed = missed
        self.skipped = skipped
    }
}
