import Foundation
@testable import GuessnumGame
import Testing

/// The hand-written JSON of the hot path must be the JSON `JSONEncoder` writes, as any decoder
/// sees it, for every verdict and any player name.
@Suite("Hand-written JSON for verdicts and guesses", .timeLimit(.minutes(2)))
struct HotPathJSONTests {
    static let names = ["bob", "Zoë 🎲", #"quote " and back\slash"#, "tab\tnew\nline\r", "bell\u{07}nul\u{00}esc\u{1B}", "/slash/", "\u{202E}bidi"]
    static let verdicts: [Verdict] = [.tooLow, .tooHigh, .correct, .roundOver, .outOfRange(try! GuessRange(-50, 1_000_000_000_000))]

    @Test("A verdict line decodes to itself and to what JSONEncoder's encoding decodes to", arguments: names)
    func verdictLine(name: String) throws {
        for verdict in Self.verdicts {
            let line = JudgedGuess(sequence: 18_446_744_073_709_551_615, round: 7,
                                 judgement: Judgement(player: PlayerRef(id: UUID(), name: name), guess: Int64.min, verdict: verdict))
            let fast = HotPathJSON.payload(of: line)
            #expect(try JSONDecoder().decode(JudgedGuess.self, from: fast) == line)
            let viaFoundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(line)) as? NSDictionary
            let viaHotPath = try JSONSerialization.jsonObject(with: fast) as? NSDictionary
            #expect(viaHotPath != nil && viaHotPath == viaFoundation, "\(String(decoding: fast, as: UTF8.self))")
        }
    }

    @Test("A history batch of verdicts and other items decodes to the batch", arguments: [1, 7, 300])
    func historyBatch(count: Int) throws {
        let bob = PlayerRef(id: UUID(), name: #"b"o\b"#)
        var items: [HistoryItem] = (1...count).map { sequence in
            .verdict(JudgedGuess(sequence: UInt64(sequence), round: 1, judgement: Judgement(player: bob, guess: Int64(sequence), verdict: .tooHigh)))
        }
        items.insert(.chat(RelayedChat(sequence: 0, from: bob, text: "hi")), at: items.count / 2)
        let batch = HistoryBatch(items: items, omittedGuesses: 12)
        let payloads = try HistoryPayloads.encode(batch, payloadLimit: 65_000)
        let decoded = try payloads.map { try JSONDecoder().decode(HistoryBatch.self, from: $0) }
        #expect(decoded.flatMap(\.items) == items)
        #expect(decoded.map(\.omittedGuesses).reduce(0, +) == 12)
        #expect(payloads.count == (items.count + BatchPayloads.maximumItems - 1) / BatchPayloads.maximumItems)
    }

    @Test("An empty batch that only counts omitted guesses is still a valid message")
    func onlyOmitted() throws {
        let payloads = try HistoryPayloads.encode(HistoryBatch(items: [], omittedGuesses: 3), payloadLimit: 1000)
        #expect(payloads.count == 1)
        #expect(try JSONDecoder().decode(HistoryBatch.self, from: payloads[0]) == HistoryBatch(items: [], omittedGuesses: 3))
    }

    @Test("Guesses in the exact form senders write are read directly; anything else is left to the decoder", arguments: [
        (#"{"guess":42}"#, Int64(42) as Int64?),
        (#"{"guess":-7}"#, -7),
        (#"{"guess":0}"#, 0),
        (#"{"guess":9223372036854775807}"#, Int64.max),
        (#"{"guess":-9223372036854775808}"#, Int64.min),
        (#"{"guess":9223372036854775808}"#, nil),
        (#"{"guess":-9223372036854775809}"#, nil),
        (#"{"guess":99999999999999999999}"#, nil),
        (#"{"guess":007}"#, nil),
        (#"{"guess": 42}"#, nil),
        (#"{"guess":"42"}"#, nil),
        (#"{"guess":4.2}"#, nil),
        (#"{"guess":}"#, nil),
        (#"{"guess":-}"#, nil),
        (#"{"guess":42,"x":1}"#, nil),
        (#"{"gues":42}"#, nil),
        ("", nil),
    ])
    func guess(text: String, expected: Int64?) {
        #expect(HotPathJSON.guess(in: Data(text.utf8)) == expected)
        if let expected {
            #expect((try? JSONDecoder().decode(GuessMessage.self, from: Data(text.utf8)))?.guess == expected, "the decoder agrees")
        }
    }

    @Test("What GuestGame sends takes the direct path")
    func senderForm() throws {
        for value: Int64 in [1, -1, 123_456_789, .max, .min] {
            #expect(HotPathJSON.guess(in: try JSONEncoder().encode(GuessMessage(guess: value))) == value)
        }
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
