import Foundation

/// What the host broadcasts, gathered between ticks and sent as few ``HistoryBatch`` messages
/// as fit a frame: one encoding and one send to all recipients per tick, however many events
/// happened and however many players read them.
///
/// Beyond ``maximumGuessLinesPerTick`` guess lines in one tick, further guess lines are only
/// counted (``HistoryBatch/omittedGuesses``); every other item is always sent.
struct FanOut: Sendable {
    /// The most items one message carries before it is split.
    static let maximumItemsPerMessage = 256

    let maximumGuessLinesPerTick: Int
    private(set) var pending: [HistoryItem] = []
    private var guessLines = 0
    private var omitted = 0

    init(maximumGuessLinesPerTick: Int) {
        self.maximumGuessLinesPerTick = maximumGuessLinesPerTick
    }

    var isEmpty: Bool { pending.isEmpty && omitted == 0 }

    /// Adds `item` to the next batch.
    mutating func enqueue(_ item: HistoryItem) {
        if case .verdict = item {
            guard guessLines < maximumGuessLinesPerTick else {
                omitted += 1
                return
            }
            guessLines += 1
        }
        pending.append(item)
    }

    /// The batch gathered since the last call, or nil when nothing happened.
    mutating func take() -> HistoryBatch? {
        guard !isEmpty else { return nil }
        defer {
            pending = []
            guessLines = 0
            omitted = 0
        }
        return HistoryBatch(items: pending, omittedGuesses: omitted)
    }

    /// `batch` as one or more JSON payloads of at most `payloadLimit` bytes each (a single item
    /// larger than that is left alone, for the session to refuse).
    static func encode(_ batch: HistoryBatch, payloadLimit: Int) throws -> [Data] {
        let encoder = JSONEncoder()
        var payloads: [Data] = []
        var omitted = batch.omittedGuesses
        var start = batch.items.startIndex
        repeat {
            let end = min(start + maximumItemsPerMessage, batch.items.endIndex)
            try split(batch.items[start..<end], omitted: omitted, limit: payloadLimit, encoder: encoder, into: &payloads)
            omitted = 0
            start = end
        } while start < batch.items.endIndex
        return payloads
    }

    private static func split(
        _ items: ArraySlice<HistoryItem>, omitted: Int, limit: Int, encoder: JSONEncoder, into payloads: inout [Data]
    ) throws {
        let payload = try encoder.encode(HistoryBatch(items: Array(items), omittedGuesses: omitted))
        if payload.count <= limit || items.count <= 1 {
            payloads.append(payload)
            return
        }
        let middle = items.startIndex + items.count / 2
        try split(items[..<middle], omitted: omitted, limit: limit, encoder: encoder, into: &payloads)
        try split(items[middle...], omitted: 0, limit: limit, encoder: encoder, into: &payloads)
    }
}
