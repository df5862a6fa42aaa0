import Foundation
@testable import GuessnumGame
import Testing

/// The bytes of a verdict line, pinned: the hand-written hot path and `JSONEncoder` must keep
/// writing what they wrote when the wire format was set (docs/PROTOCOL.md).
@Suite("Verdict line bytes", .timeLimit(.minutes(2)))
struct JudgedGuessBytesTests {
    static let bob = PlayerRef(id: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!, name: "bob")
    static let line = JudgedGuess(sequence: 17, round: 3, judgement: Judgement(player: bob, guess: 50, verdict: .outOfRange(try! GuessRange(1, 10))))

    @Test("The hot path writes the pinned bytes")
    func hotPath() {
        #expect(String(decoding: HotPathJSON.payload(of: Self.line), as: UTF8.self) == #"{"sequence":17,"round":3,"player":{"id":"6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10","name":"bob"},"guess":50,"verdict":{"kind":"outOfRange","range":{"lower":1,"upper":10}}}"#)
    }

    @Test("JSONEncoder writes the pinned keys and values, and reads them back")
    func foundation() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Self.line)
        #expect(String(decoding: data, as: UTF8.self) == #"{"guess":50,"player":{"id":"6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10","name":"bob"},"round":3,"sequence":17,"verdict":{"kind":"outOfRange","range":{"lower":1,"upper":10}}}"#)
        #expect(try JSONDecoder().decode(JudgedGuess.self, from: data) == Self.line)
        let item = try encoder.encode(HistoryItem.verdict(Self.line))
        #expect(String(decoding: item, as: UTF8.self) == #"{"body":{"guess":50,"player":{"id":"6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10","name":"bob"},"round":3,"sequence":17,"verdict":{"kind":"outOfRange","range":{"lower":1,"upper":10}}},"type":"guessnum.v1.verdict"}"#)
    }
}
