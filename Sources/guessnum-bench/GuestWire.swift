import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GuessnumGame
import Multipeer

/// The few frames a simulated guest writes and the markers it looks for in what it reads,
/// byte for byte what a real player (a `RoomGuest` of `GuessRules`) exchanges (`guessnum.v1.*`
/// JSON in data frames).
enum GuestWire {
    static let heartbeat = FrameCodec.encode(.heartbeat)

    /// A hello frame inviting itself into the host's session as `peer`, committed to the
    /// verification-code nonce `codeNonce`.
    static func hello(from peer: PeerID, codeNonce: [UInt8]) -> EncodedFrame {
        FrameCodec.encode(.hello(.init(
            peer: peer, invitationTimeoutMilliseconds: 30_000, codeCommitment: VerificationCode.commitment(to: codeNonce), context: Data())))
    }

    /// A RESUME that starts a fresh pairing, as a session's first frame once connected (sent
    /// right behind the HELLO, it is read after the host's decision, as a connected peer's).
    static func freshResume() -> EncodedFrame {
        FrameCodec.encode(.resume(.init(incarnation: UInt64.random(in: 1...UInt64.max), knownIncarnation: 0, received: 0)))
    }

    /// The reveal of `codeNonce`, sent as the ACCEPT arrives, as a real guest does.
    static func reveal(_ codeNonce: [UInt8]) -> EncodedFrame {
        FrameCodec.encode(.reveal(nonce: codeNonce))
    }

    /// A guess, as a player sends it (`{"guess":N}`, the game's own codec).
    static func guess(_ value: Int64) -> EncodedFrame {
        // The codec's guess cannot fail: it writes a number.
        FrameCodec.encode(.data(messageType: GuessMessage.messageType, payload: (try? GuessCodec.encode(move: value)) ?? Data()))
    }

    /// How many verdict lines a history batch carries, and how many guesses it only counts.
    static func countHistory(_ payload: Data) -> (verdicts: Int, omitted: Int) {
        payload.withUnsafeBytes { bytes in
            (occurrences(of: verdictMarker, in: bytes), number(after: omittedMarker, in: bytes))
        }
    }

    /// The player name in the fan-out benchmark's broadcasts, which tells them from the game's.
    static let fanOutPlayerName = "bench fan-out"
    private static let fanOutMarker = Array("\"\(fanOutPlayerName)\"".utf8)

    /// Whether `payload` is one of the fan-out benchmark's broadcasts.
    static func isFanOutFrame(_ payload: Data) -> Bool {
        payload.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            return fanOutMarker.withUnsafeBytes { find(base, bytes.count, $0.baseAddress, $0.count) } != nil
        }
    }

    private static let verdictMarker = Array("\"\(JudgedGuess.messageType)\"".utf8)
    private static let omittedMarker = Array("\"omittedGuesses\":".utf8)

    /// Counts `marker` in `bytes` (a simulated guest reads every broadcast, so this must cost
    /// far less than the host's work per broadcast: `memchr` and `memcmp`, not a Swift loop).
    private static func occurrences(of marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int {
        guard var cursor = bytes.baseAddress, bytes.count >= marker.count else { return 0 }
        let end = cursor + bytes.count
        var count = 0
        marker.withUnsafeBytes { needle in
            while let found = find(cursor, end - cursor, needle.baseAddress, needle.count) {
                count += 1
                cursor = UnsafeRawPointer(found) + needle.count
            }
        }
        return count
    }

    /// Glibc's `memmem` without `_GNU_SOURCE`: the first `needle` in `count` bytes at `haystack`.
    private static func find(_ haystack: UnsafeRawPointer, _ count: Int, _ needle: UnsafeRawPointer?, _ needleCount: Int) -> UnsafeRawPointer? {
        guard let needle, needleCount > 0 else { return nil }
        let first = Int32(needle.load(as: UInt8.self))
        var cursor = haystack
        let last = haystack + count - needleCount
        while cursor <= last {
            guard let hit = memchr(cursor, first, last - cursor + 1) else { return nil }
            let candidate = UnsafeRawPointer(hit)
            if memcmp(candidate, needle, needleCount) == 0 { return candidate }
            cursor = candidate + 1
        }
        return nil
    }

    private static func number(after marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count >= marker.count else { return 0 }
        let end = base + bytes.count
        guard let found = marker.withUnsafeBytes({ find(base, bytes.count, $0.baseAddress, $0.count) }) else { return 0 }
        var cursor = UnsafeRawPointer(found) + marker.count
        var value = 0
        while cursor < end, (48...57).contains(cursor.load(as: UInt8.self)) {
            value = value * 10 + Int(cursor.load(as: UInt8.self) - 48)
            cursor += 1
        }
        return value
    }
}
