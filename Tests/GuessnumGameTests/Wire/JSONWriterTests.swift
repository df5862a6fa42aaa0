import Foundation
@testable import GuessnumGame
import Testing

/// The pointer writer under the hot path's JSON: each piece what `String`, `UUID` and
/// `JSONEncoder` write, and the sizes it is given always enough for the worst case.
@Suite("JSON written through a pointer", .timeLimit(.minutes(2)))
struct JSONWriterTests {
    static func written(capacity: Int, _ body: (inout JSONWriter) -> Void) -> String {
        JSONWriter.withTemporary(capacity: capacity, body) { String(decoding: $0, as: UTF8.self) }
    }

    @Test("Numbers are written as String writes them, at every integer type's edges")
    func numbers() {
        let signed: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, .max, .min, .max - 1, .min + 1]
        for value in signed {
            #expect(Self.written(capacity: JSONWriter.maximumNumberBytes) { $0.number(value) } == String(value))
        }
        let unsigned: [UInt64] = [0, 9, 10, UInt64(Int64.max) + 1, .max]
        for value in unsigned {
            #expect(Self.written(capacity: JSONWriter.maximumNumberBytes) { $0.number(value) } == String(value))
        }
        #expect(Self.written(capacity: JSONWriter.maximumNumberBytes) { $0.number(Int.min) } == String(Int.min))
        #expect(Self.written(capacity: JSONWriter.maximumNumberBytes) { $0.number(UInt8(255)) } == "255")
    }

    @Test("A UUID is written as uuidString writes it")
    func uuid() {
        for id in [UUID(), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))] {
            #expect(Self.written(capacity: JSONWriter.uuidBytes) { $0.uuid(id) } == id.uuidString)
        }
    }

    @Test("A string needing the most escapes fits the size it is given and decodes to itself", arguments: [
        String(repeating: "\u{01}", count: 300), String(repeating: "\"\\", count: 150), "\u{00}\u{1F}\t\n\r/🎲", "",
    ])
    func worstStrings(text: String) throws {
        let json = Self.written(capacity: JSONWriter.maximumStringBytes(text)) { $0.string(text) }
        #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
        #expect(try JSONSerialization.jsonObject(with: JSONEncoder().encode(text), options: .fragmentsAllowed) as? String
            == JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String)
    }

    @Test("A verdict line with every field at its longest fits the size computed for it")
    func longestLine() throws {
        let name = String(repeating: "\u{02}", count: 200)
        let line = JudgedGuess(sequence: .max, round: .min, judgement: Judgement(
            player: PlayerRef(id: UUID(), name: name), guess: .min, verdict: .outOfRange(try GuessRange(-1_000_000_000_000_000, 1_000_000_000_000_000))))
        let payload = HotPathJSON.payload(of: line)
        #expect(try JSONDecoder().decode(JudgedGuess.self, from: payload) == line)
        #expect(payload.count <= HotPathJSON.maximumBytes(of: line))
        let item = HistoryPayloads.json(of: line)
        #expect(try JSONDecoder().decode(HistoryItem.self, from: Data(item)) == .verdict(line))
    }
}
