/// The broadcast items a player who comes back after a drop may have missed: the last ones sent,
/// at most a limit, in order.
///
/// Every item broadcast with a sequence number above ``floor`` is kept; older ones have been let
/// go, and a player who has nothing newer than them gets a fresh welcome instead of a replay.
package struct RecentItems<Item: SequencedItem>: Sendable {
    /// The most items kept.
    package let limit: Int
    private var items: [Item] = []
    /// The index in `items` of the oldest item kept (items before it are let go in chunks).
    private var start = 0
    /// The sequence number of the newest item let go: every broadcast item numbered above it is kept.
    package private(set) var floor: UInt64 = 0

    /// Keeps at most `limit` items; items numbered `floor` or below are unknown (a resumed game:
    /// what its earlier life broadcast is not kept).
    package init(limit: Int, floor: UInt64 = 0) {
        self.limit = max(0, limit)
        self.floor = floor
    }

    /// How many items are kept.
    package var count: Int { items.count - start }

    /// Keeps the items of a batch just broadcast.
    package mutating func append(contentsOf batch: [Item]) {
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
    package func after(_ sequence: UInt64, newest: UInt64) -> [Item]? {
        guard sequence >= floor, sequence <= newest else { return nil }
        var first = items.endIndex
        while first > start, let number = items[first - 1].sequence, number > sequence { first -= 1 }
        return Array(items[first...])
    }
}

/// A broadcast item that may carry the sequence number the host gave it.
package protocol SequencedItem: Sendable {
    /// The item's sequence number, or nil for one that has none (an item of an unknown kind).
    var sequence: UInt64? { get }
}
