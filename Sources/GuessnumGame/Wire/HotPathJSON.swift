import Foundation

/// Hand-written JSON for the two messages on the hot path: the verdict a guesser waits for and
/// the guess it sends. Foundation's `JSONEncoder` spent about 20 µs per verdict here (generic
/// containers, dynamic casts), more than the loopback round trip itself; these functions write
/// the same JSON (decoders cannot tell them apart) directly into bytes.
enum HotPathJSON {
    /// `line` as its wire JSON.
    static func payload(of line: JudgedGuess) -> Data {
        JSONWriter.data(capacity: maximumBytes(of: line)) { write(line, to: &$0) }
    }

    /// The most bytes `write(_:to:)` writes for `line`: its keys and
    /// punctuation (~150), five numbers of at most 20 bytes, a UUID and the escaped name.
    static func maximumBytes(of line: JudgedGuess) -> Int {
        200 + 5 * JSONWriter.maximumNumberBytes + maximumBytes(of: line.player)
    }

    /// Writes `{"sequence":…,"round":…,"player":{"id":…,"name":…},"guess":…,"verdict":{…}}`.
    static func write(_ line: JudgedGuess, to writer: inout JSONWriter) {
        writer.literal(#"{"sequence":"#)
        writer.number(line.sequence)
        writer.literal(#","round":"#)
        writer.number(line.round)
        writer.literal(#","player":"#)
        write(line.player, to: &writer)
        writer.literal(#","guess":"#)
        writer.number(line.guess)
        writer.literal(#","verdict":{"kind":""#)
        switch line.verdict {
        case .tooLow: writer.literal(#"tooLow"}"#)
        case .tooHigh: writer.literal(#"tooHigh"}"#)
        case .correct: writer.literal(#"correct"}"#)
        case .roundOver: writer.literal(#"roundOver"}"#)
        case .outOfRange(let range):
            writer.literal(#"outOfRange","range":{"lower":"#)
            writer.number(range.lowerBound)
            writer.literal(#","upper":"#)
            writer.number(range.upperBound)
            writer.literal("}}")
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// A guess as its wire JSON, `{"guess":-?digits}`: what `JSONEncoder` writes for
    /// ``GuessMessage``, a few dozen times faster (a player's every guess takes this path).
    static func payload(ofGuess guess: Int64) -> Data {
        JSONWriter.data(capacity: 10 + JSONWriter.maximumNumberBytes) { writer in
            writer.literal(#"{"guess":"#)
            writer.number(guess)
            writer.byte(UInt8(ascii: "}"))
        }
    }

    /// The most bytes `write(_:to:)` writes for `player`.
    static func maximumBytes(of player: PlayerRef) -> Int {
        20 + JSONWriter.uuidBytes + JSONWriter.maximumStringBytes(player.name)
    }

    /// Writes `{"id":…,"name":…}`.
    static func write(_ player: PlayerRef, to writer: inout JSONWriter) {
        writer.literal(#"{"id":""#)
        writer.uuid(player.id)
        writer.literal(#"","name":"#)
        writer.string(player.name)
        writer.byte(UInt8(ascii: "}"))
    }

    /// Appends `value` in decimal.
    static func appendNumber(_ value: Int64, to bytes: inout [UInt8]) {
        JSONWriter.append(to: &bytes, capacity: JSONWriter.maximumNumberBytes) { $0.number(value) }
    }

    /// The guess in `payload` when it has the exact form senders write (`{"guess":-?digits}`),
    /// or nil, in which case the caller decodes it the general way.
    static func guess(in payload: Data) -> Int64? {
        // Over the raw bytes: `Data`'s slices and iterators cost more than the rest of a guess's
        // judging here.
        payload.withUnsafeBytes { bytes -> Int64? in
            let prefix = #"{"guess":"#.utf8
            guard bytes.count > prefix.count + 1, bytes.count <= prefix.count + 21, bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
            guard bytes.starts(with: prefix) else { return nil }
            var index = prefix.count
            let end = bytes.count - 1
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let digits = end - index
            guard digits > 0, digits <= 19 else { return nil }
            if digits > 1, bytes[index] == 48 { return nil }  // JSON has no leading zeros
            var magnitude: UInt64 = 0
            while index < end {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                magnitude = magnitude * 10 + UInt64(digit)
                index += 1
            }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }
}
