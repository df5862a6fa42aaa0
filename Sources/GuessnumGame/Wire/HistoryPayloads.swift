import Foundation

/// Guess-the-number's history batches as payloads that fit a frame: each item encoded once,
/// verdict lines, nearly all of a busy game's items, on the hand-written path (``HotPathJSON``).
enum HistoryPayloads {
    /// `batch` as one or more JSON payloads of at most `payloadLimit` bytes and
    /// ``Rooms/BatchPayloads/maximumItems`` items each, in order (a single item larger than that is
    /// left alone, for the session to refuse); the counts travel in the first. Each item is
    /// encoded once; verdict lines, nearly all of a busy game's items, take the hand-written path
    /// (``HotPathJSON``).
    static func encode(_ batch: HistoryBatch, payloadLimit: Int) throws -> [Data] {
        let encoder = JSONEncoder()
        let items = try batch.items.map { try json(of: $0, encoder: encoder) }
        return BatchPayloads.split(items, payloadLimit: payloadLimit) { first in
            first ? batch.closing : HistoryBatch(items: []).closing
        }
    }

    static func json(of item: HistoryItem, encoder: JSONEncoder) throws -> [UInt8] {
        guard case .verdict(let line) = item else { return Array(try encoder.encode(item)) }
        return json(of: line)
    }

    /// A verdict line as a history item, `{"type":"guessnum.v1.verdict","body":…}`, by hand.
    static func json(of line: JudgedGuess) -> [UInt8] {
        let type = JudgedGuess.messageType
        return JSONWriter.bytes(capacity: 20 + type.utf8.count + HotPathJSON.maximumBytes(of: line)) { writer in
            writer.literal(#"{"type":""#)
            writer.raw(type)
            writer.literal(#"","body":"#)
            HotPathJSON.write(line, to: &writer)
            writer.byte(UInt8(ascii: "}"))
        }
    }
}

extension HistoryBatch {
    /// What closes a payload of this batch after its items' `]`: its counts, then `}`.
    var closing: [UInt8] {
        var closing = Array(#","omittedGuesses":"#.utf8)
        HotPathJSON.appendNumber(Int64(omittedGuesses), to: &closing)
        for (key, value) in [("omittedJoins", omittedJoins), ("omittedLeaves", omittedLeaves)] where value > 0 {
            closing.append(contentsOf: ",\"\(key)\":".utf8)
            HotPathJSON.appendNumber(Int64(value), to: &closing)
        }
        if let playerCount {
            closing.append(contentsOf: #","playerCount":"#.utf8)
            HotPathJSON.appendNumber(Int64(playerCount), to: &closing)
        }
        closing.append(UInt8(ascii: "}"))
        return closing
    }
}
