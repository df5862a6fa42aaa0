import Foundation
@testable import GuessnumGame
import Multipeer
@testable import MultipeerAvahi

/// The decoders that read what strangers send, each fuzzed on its own. A target must never
/// crash, hang or leak on any input; where an input decodes, what it decodes to must encode
/// and decode again to the same value (a property, checked with `precondition`, so a
/// disagreement is a crash libFuzzer reports).
enum FuzzTarget: String, CaseIterable, Sendable {
    /// The frame decoder, fed the input in two pieces (every split point of the stream matters).
    case frames
    /// HELLO and ACCEPT bodies: the handshake frames.
    case handshake
    /// The hot path's guess parser, against the JSON decoder.
    case guess
    /// Every game message decoder.
    case messages
    /// The TXT record parser of discovery.
    case txt
    /// The moves, events, views and settings of the games on the room layer.
    case games
    /// What a hostile host sends a guest, in sequence (``GuestFuzzing``).
    case guest

    nonisolated(unsafe) static var current: FuzzTarget?

    func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        switch self {
        case .frames: Self.frames(bytes)
        case .handshake: Self.handshake(bytes)
        case .guess: Self.guess(bytes)
        case .messages: Self.messages(bytes)
        case .txt: Self.txt(bytes)
        case .games: GameFuzzing.run(Data(bytes))
        case .guest: GuestFuzzing.run(Data(bytes))
        }
    }

    private static func frames(_ bytes: [UInt8]) {
        let split = bytes.first.map { Int($0) % (bytes.count + 1) } ?? 0
        var decoder = FrameDecoder(maximumFrameLength: 4096)
        decoder.append(bytes[..<split])
        decoder.append(bytes[split...])
        while let frame = try? decoder.nextFrame() {
            let again = try? FrameCodec.decode(FrameCodec.encode(frame).bytes.dropFirst(4))
            precondition(again == frame, "a decoded frame re-encodes to itself")
        }
    }

    private static func handshake(_ bytes: [UInt8]) {
        for kind: UInt8 in [0x01, 0x02] {
            guard let frame = try? FrameCodec.decode([kind] + bytes) else { continue }
            precondition((try? FrameCodec.decode(FrameCodec.encode(frame).bytes.dropFirst(4))) == frame)
        }
    }

    private static func guess(_ bytes: [UInt8]) {
        let data = Data(bytes)
        guard let fast = HotPathJSON.guess(in: data) else { return }
        // What the hot path reads must be what the full decoder reads.
        precondition((try? JSONDecoder().decode(GuessMessage.self, from: data))?.guess == fast, "hot path and decoder agree")
    }

    private static func messages(_ bytes: [UInt8]) {
        let data = Data(bytes)
        roundTrip(GuessMessage.self, data)
        roundTrip(ChatMessage.self, data)
        roundTrip(RenameRequest.self, data)
        roundTrip(SyncRequest.self, data)
        roundTrip(WelcomeMessage.self, data)
        roundTrip(JudgedGuess.self, data)
        roundTrip(GameErrorMessage.self, data)
        roundTrip(HistoryBatch.self, data)
    }

    private static func roundTrip<Message: GameMessage & Equatable>(_ type: Message.Type, _ data: Data) {
        guard let message = try? JSONDecoder().decode(type, from: data) else { return }
        guard let encoded = try? JSONEncoder().encode(message) else { preconditionFailure("a decoded \(type) encodes") }
        precondition((try? JSONDecoder().decode(type, from: encoded)) == message, "\(type) round-trips")
    }

    private static func txt(_ bytes: [UInt8]) {
        // Strings as Avahi hands them over: split at NUL bytes, as separate TXT entries.
        let texts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let entries = TXTRecord.parse(texts)
        _ = TXTRecord.peer(named: "fuzz", from: entries)
    }
}

/// libFuzzer's entry point: one input for the current target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.current?.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
