import Foundation
@testable import Multipeer
import Testing

/// A ledger lets go of the frames it kept as soon as the peer has acknowledged all of them, not
/// 64 acknowledged messages later: a host's copy of each player's welcome goes with the first
/// acknowledgement that covers it.
@Suite("The message ledger lets go of what was acknowledged", .timeLimit(.minutes(1)))
struct MessageLedgerReleaseTests {
    private let limits = (messages: 4096, bytes: 2 * 1024 * 1024)

    private func frame(_ index: Int) -> EncodedFrame {
        FrameCodec.encode(.data(messageType: "m", payload: Data(repeating: UInt8(truncatingIfNeeded: index), count: 100)))
    }

    @Test("Acknowledging everything sent frees every frame; acknowledging part keeps the rest, in order")
    func fullAcknowledgementFreesTheFrames() {
        var ledger = MessageLedger()
        for index in 0..<3 { _ = ledger.append(frame(index), queued: false, limits: limits) }
        let partly = ledger.acknowledge(2)
        #expect(partly)
        #expect(ledger.retainedCount == 1 && ledger.heldFrames == 3)
        let wholly = ledger.acknowledge(3)
        #expect(wholly)
        #expect(ledger.retainedCount == 0 && ledger.retainedBytes == 0)
        #expect(ledger.heldFrames == 0, "nothing acknowledged is held")
        for index in 3..<5 { _ = ledger.append(frame(index), queued: false, limits: limits) }
        #expect(ledger.retainedCount == 2 && ledger.firstRetained == 3)
        let again = ledger.acknowledge(5)
        #expect(again)
        #expect(ledger.heldFrames == 0)
    }
}
