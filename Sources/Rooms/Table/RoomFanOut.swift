/// What a room broadcasts, gathered between ticks: every item, except that beyond a cap per
/// tick the game's commentary (``GameRules/isCommentary(_:)``), joins and leaves, and players
/// going away and coming back are only counted (``RoomBatch``'s counts), so that a tick of a
/// room of thousands stays a frame or two whatever happens in it. Every other item is always
/// listed.
@usableFromInline package struct RoomFanOut<Rules: GameRules>: Sendable {
    /// The most commentary lines listed this tick, and separately the most joins, leaves,
    /// absences and returns; the host lowers it in big rooms
    /// (``RoomConfiguration/listedLinesPerTick(players:interval:cap:)``).
    @usableFromInline package var maximumLinesPerTick: Int
    @usableFromInline var batch = RoomBatch<Rules>(items: [])
    @usableFromInline var commentaryLines = 0
    @usableFromInline var membershipLines = 0

    /// Lists at most `maximumLinesPerTick` lines of each capped kind per tick.
    package init(maximumLinesPerTick: Int) {
        self.maximumLinesPerTick = maximumLinesPerTick
    }

    /// Whether nothing was gathered since the last ``take()``.
    package var isEmpty: Bool { batch.items.isEmpty && !batch.hasOmissions }

    /// Adds `item` to the next batch, or only counts it when its kind is over this tick's cap.
    @inlinable package mutating func enqueue(_ item: RoomItem<Rules>) {
        switch item {
        case .game(_, let event) where Rules.isCommentary(event):
            guard commentaryLines < maximumLinesPerTick else { return batch.omittedEvents += 1 }
            commentaryLines += 1
        case .joined(let joined):
            batch.playerCount = joined.playerCount
            guard listsMembership() else { return batch.omittedJoins += 1 }
        case .left(let left):
            batch.playerCount = left.playerCount
            guard listsMembership() else { return batch.omittedLeaves += 1 }
        case .away, .back:
            guard listsMembership() else { return batch.omittedOthers += 1 }
        default:
            break
        }
        batch.items.append(item)
    }

    @inlinable mutating func listsMembership() -> Bool {
        guard membershipLines < maximumLinesPerTick else { return false }
        membershipLines += 1
        return true
    }

    /// The batch gathered since the last call (the player count only when joins or leaves were
    /// counted), or nil when nothing happened.
    package mutating func take() -> RoomBatch<Rules>? {
        guard !isEmpty else { return nil }
        defer {
            batch = RoomBatch(items: [])
            commentaryLines = 0
            membershipLines = 0
        }
        var taken = batch
        if taken.omittedJoins == 0 && taken.omittedLeaves == 0 { taken.playerCount = nil }
        return taken
    }
}
