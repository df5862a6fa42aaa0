import Foundation
import Rooms
import Testing

/// The pointer writer under the games' hot-path JSON: each piece what `String`, `UUID` and
/// `JSONEncoder` write, and the sizes it is given always enough for the worst case.
@Suite("JSON written through a pointer", .timeLimit(.minutes(2)))
struct JSONWriterTests {
    static func written(capacity: Int, _ body: (inout JSONWriter) -> Void) -> String {
        String(decoding: JSONWriter.bytes(capacity: capacity, body), as: UTF8.self)
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
        #expect(Self.written(capacity: JSONWriter.maximumNumberBytes) { $0.number(Int.max) } == String(Int.max))
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
}
