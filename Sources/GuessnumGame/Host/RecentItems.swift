/// The broadcast items a player who comes back after a drop may have missed: the last ones sent,
/// at most a limit, in order.
///
/// Every item broadcast with a sequence number above ``floor`` is kept; older ones have been let
/// go, and a player who has nothing newer than them gets a fresh welcome instead of a replay.
struct RecentItems: Sendable {
    /// The most items kept.
    let limit: Int
    private var items: [HistoryItem] = []
    /// The index in `items` of the oldest item kept (items before it are let go in chunks).
    private var start = 0
    /// The sequence number of the newest item let go: every broadcast item numbered above it is kept.
    private(set) var floor: UInt64 = 0

    /// Keeps at most `limit` items; items numbered `floor` or below are unknown (a resumed game:
    /// what its earlier life broadcast is not kept).
    init(limit: Int, floor: UInt64 = 0) {
        self.limit = max(0, limit)
        self.floor = floor
    }

    /// How many items are kept.
    var count: Int { items.count - start }

    /// Keeps the items of a batch just broadcast.
    mutating func append(contentsOf batch: [HistoryItem]) {
        items.append(contentsOf: batch)
        let excess = count - limit
        guard excess > 0 else { return }
        start += excess
        if let sequence = items[start - 1].sequence { floor = max(floor, sequence) }
        // Let go of the storage once as much is dropped as kept, so appends stay cheap.
        if start >= max(limit, 64) {
            items.removeFirst(start)
            start = 0
        }
    }

    /// Every item kept numbered after `sequence`, in order; nil when some of them were let go
    /// already, or when `sequence` is beyond `newest` (the newest number the host has given).
    func after(_ sequence: UInt64, newest: UInt64) -> [HistoryItem]? {
        guard sequence >= floor, sequence <= newest else { return nil }
        var first = items.endIndex
        while first > start, let number = items[first - 1].sequence, number > sequence { first -= 1 }
        return Array(items[first...])
    }
}
