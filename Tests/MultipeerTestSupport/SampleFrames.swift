import Foundation
import Multipeer

/// One frame of every kind, with and without optional parts.
public enum SampleFrames {
    public static let ada = try! PeerID(displayName: "Ada", identity: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!)
    public static let grace = try! PeerID(displayName: "Grace ✨", identity: UUID(uuidString: "A0B1C2D3-E4F5-4607-8819-2A3B4C5D6E7F")!)

    /// A verification-code nonce, and the commitment to it, for frames written by hand.
    public static let codeNonce = Array(repeating: UInt8(0x5A), count: VerificationCode.nonceBytes)
    public static let codeCommitment = VerificationCode.commitment(to: codeNonce)
    /// A RESUME that starts a fresh pairing: what a client written by hand that announces
    /// message resume (as a HELLO does by default) says once connected, before any data.
    public static let freshResume = Frame.resume(.init(incarnation: 0x5A5A, knownIncarnation: 0, received: 0))

    public static let all: [Frame] = [
        .hello(.init(peer: ada, invitationTimeoutMilliseconds: 30_000, codeCommitment: codeCommitment, context: Data("table 4".utf8))),
        .hello(.init(peer: grace, invitationTimeoutMilliseconds: 0, codeCommitment: codeCommitment, context: Data())),
        .accept(.init(peer: grace, codeNonce: codeNonce)),
        .accept(.init(peer: grace, codeNonce: codeNonce, challenge: Data("a question".utf8))),
        .reveal(nonce: codeNonce),
        .reveal(nonce: codeNonce, answer: Data([0, 0xFF, 7])),
        .decline(.init(cause: .refused, reason: "game is full")),
        .decline(.init(cause: .timedOut, reason: nil)),
        .data(messageType: "guess", payload: Data([0, 1, 2, 0xFF])),
        .data(messageType: nil, payload: Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })),
        .data(messageType: nil, payload: Data()),
        .heartbeat,
        .goodbye(reason: "see you"),
        .goodbye(reason: nil),
        .hello(.init(peer: ada, invitationTimeoutMilliseconds: 1, codeCommitment: codeCommitment, features: 0, context: Data())),
        .accept(.init(peer: ada, codeNonce: codeNonce, features: 0xFFFF_FFFF)),
        .streamOpen(id: 1, name: "timer ⏱"),
        .streamOpen(id: 0xFFFF_FFFE, name: "a"),
        .streamData(id: 1, bytes: Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 13) })),
        .streamData(id: 2, bytes: Data([0])),
        .streamWindow(id: 1, credit: 65_536),
        .streamWindow(id: 3, credit: WireProtocol.maximumStreamCredit),
        .streamClose(id: 1, end: .finished, reason: nil),
        .streamClose(id: 2, end: .reset, reason: "cancelled by the reader"),
        .resume(.init(incarnation: 1, knownIncarnation: 0, received: 0)),
        .resume(.init(incarnation: .max, knownIncarnation: 0x0123_4567_89AB_CDEF, received: 1_000_000)),
        .acknowledge(received: 0),
        .acknowledge(received: .max),
    ]

    /// Every sample frame, encoded back to back.
    /// Byte sequences that are no frame, each with what is wrong with it: every decoder must
    /// call them malformed.
    public static let malformed: [(what: String, bytes: [UInt8])] = [
        ("zero length", [0, 0, 0, 0]),
        ("unknown kind", [0, 0, 0, 3, 0xEE, 0x12, 0x34]),
        ("kind zero", [0, 0, 0, 1, 0x00]),
        ("hello cut inside its marker", [0, 0, 0, 3, 0x01, 0x47, 0x4E]),
        ("hello with a wrong marker", [0, 0, 0, 8, 0x01] + Array("XXXX".utf8) + [0, 1, 0]),
        ("hello cut short", [0, 0, 0, 5, 0x01] + Array("GNMP".utf8)),
        ("heartbeat with a body", [0, 0, 0, 3, 0x05, 0xAA, 0xBB]),
        ("data whose type runs past the end", [0, 0, 0, 3, 0x04, 0x09, 0x41]),
        ("goodbye that is not UTF-8", [0, 0, 0, 3, 0x06, 0xC3, 0x28]),
        ("reveal cut short", [0, 0, 0, 3, 0x07, 0x01, 0x02]),
        ("accept of version 3 cut inside its features", [0, 0, 0, 58, 0x02] + Array("GNMP".utf8) + [0, 3] + Array(repeating: 0, count: 16) + [1, 0x41]
            + Array(repeating: 0, count: 32) + [0, 0]),
        ("stream open cut inside its id", [0, 0, 0, 3, 0x08, 0, 1]),
        ("stream open with id 0", [0, 0, 0, 6, 0x08, 0, 0, 0, 0, 0x41]),
        ("stream open without a name", [0, 0, 0, 5, 0x08, 0, 0, 0, 1]),
        ("stream open whose name has a control character", [0, 0, 0, 7, 0x08, 0, 0, 0, 1, 0x41, 0x1B]),
        ("stream open whose name is not UTF-8", [0, 0, 0, 7, 0x08, 0, 0, 0, 1, 0xC3, 0x28]),
        ("stream open whose name is 256 bytes", [0, 0, 1, 5, 0x08, 0, 0, 0, 1] + Array(repeating: 0x41, count: 256)),
        ("stream data without data", [0, 0, 0, 5, 0x09, 0, 0, 0, 1]),
        ("stream window cut inside its credit", [0, 0, 0, 7, 0x0A, 0, 0, 0, 1, 0, 1]),
        ("stream window with trailing bytes", [0, 0, 0, 10, 0x0A, 0, 0, 0, 1, 0, 0, 0, 1, 0]),
        ("stream window of no credit", [0, 0, 0, 9, 0x0A, 0, 0, 0, 1, 0, 0, 0, 0]),
        ("stream window above 2^31 - 1", [0, 0, 0, 9, 0x0A, 0, 0, 0, 1, 0x80, 0, 0, 0]),
        ("stream close without its end", [0, 0, 0, 5, 0x0B, 0, 0, 0, 1]),
        ("stream close with an unknown end", [0, 0, 0, 6, 0x0B, 0, 0, 0, 1, 2]),
        ("stream close whose reason is not UTF-8", [0, 0, 0, 8, 0x0B, 0, 0, 0, 1, 1, 0xC3, 0x28]),
        ("kind after the last", [0, 0, 0, 1, 0x0F]),
        ("resource offer cut inside its transfer id", [0, 0, 0, 9, 0x0C, 0, 0, 0, 1, 1, 2, 3, 4]),
        ("resource offer whose name is a path", [0, 0, 0, 65, 0x0C, 0, 0, 0, 1] + Array(repeating: 1, count: 16) + Array(repeating: 0, count: 8)
            + Array(repeating: 2, count: 32) + Array("../x".utf8)),
        ("resource offer whose name starts with a dot", [0, 0, 0, 65, 0x0C, 0, 0, 0, 1] + Array(repeating: 1, count: 16) + Array(repeating: 0, count: 8)
            + Array(repeating: 2, count: 32) + Array(".bashrc".utf8).prefix(4)),
        ("resource offer with stream id 0", [0, 0, 0, 62, 0x0C, 0, 0, 0, 0] + Array(repeating: 1, count: 16) + Array(repeating: 0, count: 8)
            + Array(repeating: 2, count: 32) + [0x41]),
        ("resource answer with an unknown verdict", [0, 0, 0, 26, 0x0D] + Array(repeating: 1, count: 16) + [2] + Array(repeating: 0, count: 8)),
        ("resource answer cut inside its offset", [0, 0, 0, 22, 0x0D] + Array(repeating: 1, count: 16) + [0, 0, 0, 0, 0]),
        ("resource result with an unknown outcome", [0, 0, 0, 18, 0x0E] + Array(repeating: 1, count: 16) + [9]),
        ("accept cut inside its nonce", [0, 0, 0, 35, 0x02] + Array("GNMP".utf8) + [0, 2] + Array(repeating: 0, count: 16) + [1, 0x41]
            + Array(repeating: 0, count: 10)),
    ]

    public static var stream: [UInt8] { all.flatMap { FrameCodec.encode($0).bytes } }

    /// The ways a decoder test feeds ``stream``: split in two at every byte, then one byte at a
    /// time; each with a name for failure messages.
    public static var chunkings: [(name: String, chunks: [ArraySlice<UInt8>])] {
        let stream = stream
        let splits = (0...stream.count).map { split in ("split at byte \(split)", [stream[..<split], stream[split...]]) }
        return splits + [("byte by byte", stream.indices.map { stream[$0...$0] })]
    }

    /// A numbered data frame, for order checks.
    public static func numbered(_ number: Int, payloadBytes: Int = 8) -> Frame {
        var payload = Data(count: max(8, payloadBytes))
        withUnsafeBytes(of: UInt64(number).bigEndian) { payload.replaceSubrange(0..<8, with: $0) }
        return .data(messageType: "n", payload: payload)
    }
}

/// Where two frame sequences first differ, in a few words (nil when equal), so a failure does
/// not print megabytes.
public func firstDifference(_ received: [Frame], _ expected: [Frame]) -> String? {
    if let index = zip(received, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
        return "frame \(index) differs"
    }
    if received.count != expected.count { return "\(received.count) frames instead of \(expected.count)" }
    return nil
}
