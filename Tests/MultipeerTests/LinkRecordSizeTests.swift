import Foundation
@testable import Multipeer
import Testing

/// A host keeps one ``LinkRecord`` per player (10,000 of them in the largest room measured), in a
/// dictionary whose every slot is one record wide: what only a handshake needs lives out of line.
@Suite("A link's record: small, its handshake-only fields out of line", .timeLimit(.minutes(1)))
struct LinkRecordSizeTests {
    /// Stands for a connection; nothing is ever sent on it here.
    private final class Unused: Connection {
        let remoteDescription = "192.0.2.1:9"
        let remoteAddress = "192.0.2.1"
        var provenPeer: PeerFingerprint? { nil }
        var provenOwner: PeerFingerprint? { nil }
        var localKey: PeerFingerprint? { nil }
        func send(_ frame: EncodedFrame) {}
        func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) { written() }
        func close() {}
        func abort() {}
        func pauseReading() {}
        func resumeReading() {}
    }

    @Test("The awaited REVEAL and the challenge read back as set, each cleared on its own, and the box goes with the last")
    func untilRevealFields() {
        var record = LinkRecord(connection: Unused(), phase: .awaitingHello(since: .now), now: .now)
        #expect(record.awaitedReveal == nil && record.challenge == nil)
        let challenge = InvitationChallenge(bytes: Data("question?".utf8)) { _ in nil }
        record.challenge = challenge
        record.awaitedReveal = ([1, 2, 3], [4, 5])
        #expect(record.challenge?.bytes == Data("question?".utf8))
        #expect(record.awaitedReveal?.commitment == [1, 2, 3] && record.awaitedReveal?.advertiserNonce == [4, 5])
        record.challenge = nil
        #expect(record.challenge == nil)
        #expect(record.awaitedReveal?.commitment == [1, 2, 3], "clearing the challenge keeps the awaited REVEAL")
        let copy = record
        record.awaitedReveal = nil
        #expect(record.awaitedReveal == nil && record.challenge == nil)
        #expect(copy.awaitedReveal?.advertiserNonce == [4, 5], "a copy keeps its own value")
    }

    @Test("A record takes at most 264 bytes (424 with the invitation, the awaited REVEAL, the challenge and a resume's counts inline)")
    func recordSize() {
        #expect(MemoryLayout<LinkRecord>.stride <= 264)
        #expect(MemoryLayout<LinkPhase>.stride <= 40, "the invitation being decided is out of line")
        #expect(MemoryLayout<LinkResume?>.stride <= 16, "a resume's counts while awaiting the peer's are out of line")
    }
}
