import Foundation
@testable import Multipeer
import MultipeerTestSupport
import Testing

/// A stream's window grows while its reader keeps up, and only then: the credit a reader grants
/// as it takes what arrived.
@Suite("A stream's growing window", .timeLimit(.minutes(1)))
struct StreamWindowTests {
    /// A writer that sends 128-byte chunks whenever its credit allows, and the buffer of a
    /// reader with window 1 KiB growing to at most 4 KiB.
    final class Pair: Sendable {
        let grants = Locked(0)
        let buffer: StreamBuffer
        init() {
            let grants = grants
            buffer = StreamBuffer(
                name: "s", window: 1_024, maximumWindow: 4_096, grant: { _, credit in grants.withLock { $0 += credit } }, release: { _, _ in })
        }
        /// The writer's credit after `sent` bytes: its first window and every grant, less what it sent.
        func credit(sent: Int) -> Int { 1_024 + grants.value - sent }
    }

    @Test("A reader that takes each chunk as it arrives doubles the window with its grants, up to the maximum")
    func keepingUp() async throws {
        let pair = Pair()
        var sent = 0
        var largest = 0
        for _ in 0..<400 {
            #expect(pair.credit(sent: sent) >= 128, "the writer ran out of credit after \(sent) bytes")
            pair.buffer.append(Data(count: 128))
            sent += 128
            _ = try await pair.buffer.next()
            largest = max(largest, pair.credit(sent: sent))
        }
        // Everything was read at once: the credit is the whole window, less what is read and not
        // yet granted back (under a quarter of it).
        #expect(largest == 4_096, "the window grew to the maximum, and no further")
        #expect(pair.credit(sent: sent) > 4_096 - 1_024)
    }

    @Test("A reader that falls behind (the writer filled the window before it read) grows nothing")
    func fallingBehind() async throws {
        let pair = Pair()
        var sent = 0
        for _ in 0..<20 {
            // The writer fills its credit; then the reader reads everything.
            while pair.credit(sent: sent) >= 128 {
                pair.buffer.append(Data(count: 128))
                sent += 128
            }
            for _ in 0..<(1_024 / 128) { _ = try await pair.buffer.next() }
            #expect(pair.credit(sent: sent) == 1_024, "the window stays at its first size")
        }
    }

    @Test("A reader that never reads holds one window: nothing is granted")
    func neverReading() {
        let pair = Pair()
        for _ in 0..<8 { pair.buffer.append(Data(count: 128)) }
        #expect(pair.grants.value == 0)
        #expect(pair.credit(sent: 1_024) == 0)
    }
}
