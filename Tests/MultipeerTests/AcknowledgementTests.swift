@testable import Multipeer
import Testing

/// When a side acknowledges what it received (PROTOCOL §5.5): after every 64 messages, or as
/// soon as the messages since its last acknowledgement reach 4 KiB — what the peer keeps for it
/// stays small when messages are large.
@Suite("Acknowledgements by count and by bytes", .timeLimit(.minutes(1)))
struct AcknowledgementTests {
    let limits = Session.acknowledgeLimits

    @Test("Small messages are acknowledged every 64; a large one at once; smaller ones once their bytes add up")
    func whenAcknowledged() {
        var ledger = MessageLedger()
        for _ in 1..<64 { #expect(ledger.receive(bytes: 40, acknowledging: limits) == nil) }
        #expect(ledger.receive(bytes: 40, acknowledging: limits) == 64)
        #expect(ledger.receive(bytes: 8_000, acknowledging: limits) == 65, "a welcome's size: at once")
        #expect(ledger.receive(bytes: 1_500, acknowledging: limits) == nil)
        #expect(ledger.receive(bytes: 1_500, acknowledging: limits) == nil)
        #expect(ledger.receive(bytes: 1_500, acknowledging: limits) == 68, "4,500 bytes since the last")
        #expect(ledger.acknowledgement() == nil, "nothing since")
        #expect(ledger.receive(bytes: 4_000, acknowledging: limits) == nil, "the count started again with the bytes")
        #expect(ledger.acknowledgement() == 69)
        #expect(ledger.receive(bytes: 4_000, acknowledging: limits) == nil, "a quiet moment's acknowledgement starts the bytes again too")
    }
}
