import Foundation
import GuessnumGame
import Multipeer

/// The few frames a simulated guest writes and the markers it looks for in what it reads,
/// byte for byte what the real ``GuestGame`` exchanges (`guessnum.v1.*` JSON in data frames).
enum GuestWire {
    static let heartbeat = FrameCodec.encode(.heartbeat)

    /// A hello frame inviting itself into the host's session as `peer`.
    static func hello(from peer: PeerID) -> EncodedFrame {
        FrameCodec.encode(.hello(.init(peer: peer, invitationTimeoutMilliseconds: 30_000, context: Data())))
    }

    /// A guess, as `GuestGame` sends it (`{"guess":N}`).
    static func guess(_ value: Int64) -> EncodedFrame {
        FrameCodec.encode(.data(messageType: GuessMessage.messageType, payload: Data("{\"guess\":\(value)}".utf8)))
    }

    /// How many verdict lines a history batch carries, and how many guesses it only counts.
    static func countHistory(_ payload: Data) -> (verdicts: Int, omitted: Int) {
        payload.withUnsafeBytes { bytes in
            (occurrences(of: verdictMarker, in: bytes), number(after: omittedMarker, in: bytes))
        }
    }

    private static let verdictMarker = Array("\"\(GuessLine.messageType)\"".utf8)
    private static let omittedMarker = Array("\"omittedGuesses\":".utf8)

    private static func occurrences(of marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int {
        guard let first = marker.first, bytes.count >= marker.count else { return 0 }
        var count = 0
        var index = 0
        let last = bytes.count - marker.count
        while index <= last {
            if bytes[index] == first, marker.indices.allSatisfy({ bytes[index + $0] == marker[$0] }) {
                count += 1
                index += marker.count
            } else {
                index += 1
            }
        }
        return count
    }

    private static func number(after marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= marker.count else { return 0 }
        for start in 0...(bytes.count - marker.count) where marker.indices.allSatisfy({ bytes[start + $0] == marker[$0] }) {
            var value = 0
            var index = start + marker.count
            while index < bytes.count, (48...57).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
            }
            return value
        }
        return 0
    }
}
