import Foundation
import GuessnumGame
import Multipeer

/// The seed corpus of each target (`guessnum-fuzz --write-seeds DIR`), made with the library's
/// own encoders so that it follows the protocol as the code speaks it.
enum Seeds {
    static func write(to directory: URL) throws {
        let alice = try PeerID(displayName: "alice", identity: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!)
        let nonce = Array(repeating: UInt8(0x5A), count: VerificationCode.nonceBytes)
        let frames: [Frame] = [
            .hello(.init(peer: alice, invitationTimeoutMilliseconds: 5000, codeCommitment: VerificationCode.commitment(to: nonce), context: Data("ctx".utf8))),
            .accept(.init(peer: alice, codeNonce: nonce)), .decline(.init(cause: .refused, reason: "the game is full")),
            .data(messageType: GuessMessage.messageType, payload: Data(#"{"guess":50}"#.utf8)),
            .heartbeat, .goodbye(reason: "bye"), .reveal(nonce: nonce),
            .accept(.init(peer: alice, codeNonce: nonce, challenge: Data(repeating: 7, count: 96))),
            .reveal(nonce: nonce, answer: Data(repeating: 9, count: 64)),
            .streamOpen(id: 1, name: "timer"), .streamData(id: 1, bytes: Data(repeating: 3, count: 300)),
            .streamWindow(id: 2, credit: 65_536), .streamClose(id: 1, end: .finished, reason: nil),
            .streamClose(id: 4, end: .reset, reason: "cancelled by the reader"),
            .resourceOffer(.init(streamID: 3, transfer: Array(0..<16), size: 1_000_000, digest: Array(repeating: 0xAB, count: 32), name: "photo.jpg")),
            .resourceAnswer(transfer: Array(0..<16), verdict: .accept, offset: 65_536, reason: nil),
            .resourceAnswer(transfer: Array(0..<16), verdict: .decline, offset: 0, reason: "no room"),
            .resourceResult(transfer: Array(0..<16), outcome: .failed, reason: "its SHA-256 does not match"),
        ]
        let encoded = frames.map { FrameCodec.encode($0).bytes }
        try save(encoded.enumerated().map { ("frame-\($0.offset)", $0.element) } + [("stream", encoded.flatMap { $0 })], in: directory, target: "frames")
        try save(encoded.prefix(2).enumerated().map { ("handshake-\($0.offset)", Array($0.element.dropFirst(5))) }, in: directory, target: "handshake")
        try save([#"{"guess":50}"#, #"{ "guess" : -7 }"#, #"{"guess":9223372036854775807}"#, #"{"guess":5e1}"#]
            .enumerated().map { ("guess-\($0.offset)", Array($0.element.utf8)) }, in: directory, target: "guess")
        let player = PlayerRef(id: alice.identity, name: "alice")
        func json(_ value: some Encodable) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }
        let messages: [[UInt8]] = [
            try json(GuessMessage(guess: 42)), try json(ChatMessage(text: "hi")), try json(RenameRequest(name: "bob")), try json(SyncRequest()),
            try json(JudgedGuess(sequence: 3, round: 1, judgement: Judgement(player: player, guess: 42, verdict: .tooHigh))),
            try json(GameErrorMessage(.guessesThrottled(perSecond: 20))),
            try json(HistoryBatch(items: [.chat(RelayedChat(sequence: 4, from: player, text: "hello")),
                                          .left(PlayerLeft(sequence: 5, player: player, playerCount: 0, removedByHost: true))])),
        ]
        try save(messages.enumerated().map { ("message-\($0.offset)", $0.element) }, in: directory, target: "messages")
        try save([["id=6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10", "v=1", "r=1..100", "p=2/100", "n=3"], ["id", "=x", "r=1..100", "R=5..6"]]
            .enumerated().map { ("txt-\($0.offset)", Array($0.element.joined(separator: "\u{0}").utf8)) }, in: directory, target: "txt")
        try save(try GameFuzzing.seeds().enumerated().map { ("game-\($0.offset)", $0.element) }, in: directory, target: "games")
        try save(try GuestFuzzing.seeds().enumerated().map { ("guest-\($0.offset)", $0.element) }, in: directory, target: "guest")
    }

    private static func save(_ seeds: [(String, [UInt8])], in directory: URL, target: String) throws {
        let folder = directory.appendingPathComponent(target, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in seeds { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    }
}
