import Foundation
@testable import GuessnumGame
import Rooms
import Testing

/// A busy game's store writes a journal entry every tick, by hand: what it writes must read
/// back as what `JSONEncoder` would have written.
@Suite("Guess-the-number's journal entries written by hand", .timeLimit(.minutes(1)))
struct GuessJournalJSONTests {
    static let names = ["alice", #"quote""#, #"back\slash"#, "tab\tand\nline", "control\u{01}\u{1F}", "é日本🎲", "a/b", ""]

    static var entry: GuessJournalEntry {
        var entry = GuessJournalEntry()
        entry.players = names.map { PlayerRef(id: UUID(), name: $0) }
        entry.moves = [0, 50, 1, -7, 2, Int64.max, 3, Int64.min, 4, 0, 5, 1, 6, 100, 7, 42]
        return entry
    }

    static func sortedJSON<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    @Test("The rules' entry, every kind of name and number in it, reads back as the same entry")
    func rulesEntry() throws {
        let entry = Self.entry
        let written = try #require(GuessRules.journalJSON(of: entry))
        #expect(try JSONDecoder().decode(GuessJournalEntry.self, from: Data(written)) == entry)
        #expect(try JSONDecoder().decode(GuessJournalEntry.self, from: Data(GuessRules.journalJSON(of: GuessJournalEntry()) ?? [])) == GuessJournalEntry())
    }

    @Test("The room's entry of a tick without seat or score changes reads back as JSONEncoder's; one with them is left to JSONEncoder")
    func roomEntry() throws {
        let entry = RoomJournalEntry<GuessRules>(lastSequence: 123_456_789, round: 7, rules: Self.entry)
        let written = try #require(entry.handWrittenJSON)
        let read = try JSONDecoder().decode(RoomJournalEntry<GuessRules>.self, from: Data(written))
        #expect(try Self.sortedJSON(read) == Self.sortedJSON(entry))
        let scored = RoomJournalEntry<GuessRules>(lastSequence: 1, round: 1, wins: [UUID(): 2], rules: Self.entry)
        #expect(scored.handWrittenJSON == nil)
        let seated = RoomJournalEntry<GuessRules>(lastSequence: 1, round: 1, seats: [], rules: Self.entry)
        #expect(seated.handWrittenJSON == nil)
    }
}
