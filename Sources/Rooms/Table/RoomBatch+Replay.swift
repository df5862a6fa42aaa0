extension RoomBatch {
    /// A replay sent as a batch: `items`, every one kept after `after`. A number it skips was
    /// counted rather than listed when it was broadcast, and the batch says so
    /// (``omittedOthers``), so that the guest takes the gap as one.
    init(replaying items: [RoomItem<Rules>], after: UInt64) {
        let last = items.last?.sequence ?? after
        let skipped = last > after ? Int(clamping: last - after) - items.count : 0
        self.init(items: items, omittedOthers: max(0, skipped))
    }
}
