import Foundation
import GuessnumGame
import Testing

@Suite("Parsing and checking ranges", .timeLimit(.minutes(2)))
struct GuessRangeTests {
    @Test("Ranges people type are read", arguments: [
        ("1-100", 1, 100),
        ("-50-50", -50, 50),
        ("-100--10", -100, -10),
        ("  7 - 9 ", 7, 9),
        ("1..100", 1, 100),
        ("1–100", 1, 100),
        ("+1-+2", 1, 2),
        ("0-1", 0, 1),
        ("-1000000000000000-1000000000000000", -1_000_000_000_000_000, 1_000_000_000_000_000),
    ] as [(String, Int64, Int64)])
    func parses(text: String, lower: Int64, upper: Int64) throws {
        let range = try GuessRange(parsing: text)
        #expect(range.lowerBound == lower)
        #expect(range.upperBound == upper)
    }

    @Test("Bad ranges are refused with a sentence that says why", arguments: [
        ("", "is empty"),
        ("   ", "is empty"),
        ("abc", "is not a range"),
        ("1-", "is not a range"),
        ("1 100", "is not a range"),
        ("1-100x", "is not a range"),
        ("1.5-3", "is not a range"),
        ("100-1", "is reversed"),
        ("-5--50", "is reversed"),
        ("5-5", "holds only one number"),
        ("1-1000000000000001", "reaches beyond"),
        ("1-99999999999999999999999", "reaches beyond"),
        ("-99999999999999999999999-0", "reaches beyond"),
    ])
    func refuses(text: String, reason: String) {
        do {
            let range = try GuessRange(parsing: text)
            Issue.record("\(text) was read as \(range)")
        } catch {
            #expect(error.code == .invalidRange)
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(error.message.hasSuffix("."))
        }
    }

    @Test("A reversed range says which way round it should be")
    func reversedSuggestsFix() {
        #expect(throws: GameError.reversedRange(100, 1)) { try GuessRange(parsing: "100-1") }
        #expect(GameError.reversedRange(100, 1).message.contains("as in 1-100"))
    }

    @Test("Bounds are inside; neighbours are outside", arguments: [
        (Int64(1), true), (100, true), (50, true), (0, false), (101, false), (.min, false), (.max, false),
    ])
    func contains(number: Int64, inside: Bool) {
        #expect(GuessRange.standard.contains(number) == inside)
    }

    @Test("Ranges describe themselves with an en dash, count their numbers and round-trip through JSON")
    func describes() throws {
        let range = try GuessRange(-50, 50)
        #expect(range.description == "-50–50")
        #expect(range.count == 101)
        #expect(try roundTrip(range) == range)
        #expect(String(decoding: try jsonEncoder().encode(range), as: UTF8.self) == #"{"lower":-50,"upper":50}"#)
    }

    @Test("A reversed range cannot be smuggled in through JSON")
    func decodingValidates() {
        #expect(throws: (any Error).self) { try jsonDecoder().decode(GuessRange.self, from: Data(#"{"lower":9,"upper":1}"#.utf8)) }
    }
}
