import Foundation

/// What one tick changed in a room, for a store that keeps a ``RoomSnapshot`` now and then and
/// appends an entry per tick in between (rules whose snapshot is large: a round of thousands of
/// guesses). Reading the store back is the snapshot with every entry since applied in order
/// (``RoomSnapshot/apply(_:)``).
///
/// The room's part is small: its numbering and round always, the seats and the wins only when
/// the tick may have changed them. The rules' part is theirs (``GameRules/journalEntry(for:)``).
public struct RoomJournalEntry<Rules: GameRules & Codable>: Sendable, Codable {
    /// The number of the last item broadcast after the tick.
    public var lastSequence: UInt64
    /// The current round's number after the tick.
    public var round: Int
    /// The players in their seats after the tick, in join order; nil when no one came, left or
    /// took another name.
    public var seats: [RoomSnapshot<Rules>.Seat]?
    /// Each player's wins after the tick; nil when the tick had nothing that could change them.
    public var wins: [UUID: Int]?
    /// What the tick changed in the rules.
    public var rules: Rules.JournalEntry

    /// An entry; see the properties.
    public init(lastSequence: UInt64, round: Int, seats: [RoomSnapshot<Rules>.Seat]? = nil, wins: [UUID: Int]? = nil, rules: Rules.JournalEntry) {
        (self.lastSequence, self.round, self.seats, self.wins, self.rules) = (lastSequence, round, seats, wins, rules)
    }
}

extension RoomJournalEntry {
    /// This entry's JSON, written by hand when the rules write theirs (``GameRules/journalJSON(of:)``)
    /// and no seat or score changed in the tick (nearly every tick of a busy game); nil otherwise,
    /// for `JSONEncoder`. `JSONDecoder` reads either as the same entry.
    public var handWrittenJSON: [UInt8]? {
        guard seats == nil, wins == nil, let rules = Rules.journalJSON(of: rules) else { return nil }
        return JSONWriter.bytes(capacity: rules.count + 40 + 2 * JSONWriter.maximumNumberBytes) { writer in
            writer.literal(#"{"lastSequence":"#)
            writer.number(lastSequence)
            writer.literal(#","round":"#)
            writer.number(round)
            writer.literal(#","rules":"#)
            writer.raw(rules)
            writer.byte(UInt8(ascii: "}"))
        }
    }
}

extension RoomSnapshot {
    /// Brings the room forward by one tick's `entry`.
    public mutating func apply(_ entry: RoomJournalEntry<Rules>) {
        lastSequence = entry.lastSequence
        round = entry.round
        if let seats = entry.seats { self.seats = seats }
        if let wins = entry.wins { self.wins = wins }
        rules.replay(entry.rules)
    }
}

extension RoomTable where Rules: Codable {
    /// The entry of the tick of `items` (the room after it), or nil when the rules want a fresh
    /// snapshot instead (``GameRules/journalEntry(for:)``; a snapshot every tick by default).
    package func journalEntry(for items: [RoomItem<Rules>]) -> RoomJournalEntry<Rules>? {
        guard let changes = rules.journalEntry(for: items) else { return nil }
        var seated = false
        var scored = false
        for item in items {
            switch item {
            case .joined, .left, .renamed: seated = true
            case .scores: scored = true
            case .game(_, let event) where !Rules.isCommentary(event): scored = true
            default: break
            }
        }
        return RoomJournalEntry(
            lastSequence: lastSequence, round: round, seats: seated ? snapshotSeats : nil, wins: seated || scored ? wins : nil, rules: changes)
    }
}
