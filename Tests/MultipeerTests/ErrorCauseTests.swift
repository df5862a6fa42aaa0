import Foundation
import Multipeer
import Testing

@Suite("Errors keep their cause", .timeLimit(.minutes(1)))
struct ErrorCauseTests {
    struct Move: SessionMessage {
        static let messageType = "move"
        let square: Int
    }

    struct Cause: Error, CustomDebugStringConvertible {
        var debugDescription: String { "the disk said no" }
    }

    @Test("A cause is kept and shown to logs, never in the sentence, and does not count in equality or hashing")
    func causeKept() throws {
        let plain = MultipeerError.connectionFailed(try Endpoint(host: "10.0.0.1", port: 7), "connection refused")
        let caused = plain.causedBy(Cause())
        #expect(caused.underlying is Cause)
        #expect(plain.underlying == nil)
        #expect(caused == plain)
        #expect(Set([caused, plain]).count == 1)
        #expect(caused.message == plain.message && caused.description == plain.message)
        #expect(!caused.message.contains("the disk said no"))
        #expect(caused.debugDescription == "\(plain.message) [connectionFailed] (caused by: the disk said no)")
        #expect(plain.debugDescription == "\(plain.message) [connectionFailed]")
        #expect(ErrorCause.root(of: MultipeerError.cancelled.causedBy(caused)) is Cause)
    }

    @Test("An error made from another one keeps it: a message that cannot be encoded or decoded")
    func catalogueKeepsCauses() throws {
        let encoding = MultipeerError.messageEncodingFailed("move", Cause())
        #expect(encoding.underlying is Cause)
        let received = ReceivedData(peer: try PeerID(displayName: "bob"), messageType: "move", payload: Data("{}".utf8))
        let error = #expect(throws: MultipeerError.self) { _ = try received.decode(Move.self) }
        #expect(error?.code == .messageDecodingFailed)
        #expect(error?.underlying is DecodingError, "\(String(reflecting: error))")
    }
}
