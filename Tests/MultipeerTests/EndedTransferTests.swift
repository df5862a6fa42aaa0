import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// What a receiver keeps of a transfer that ended: its outcome alone, for the resume window,
/// so that a sender whose link dropped before it heard the result is told it when it offers the
/// transfer again, and nothing per file once the window has passed.
@Suite("Ended transfers", .timeLimit(.minutes(1)))
struct EndedTransferTests {
    @Test("A saved transfer offered again (its result lost with a link) is answered saved, without a new offer; once the resume window has passed, the same id is a new offer")
    func rememberedByOutcome() async throws {
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(300)  // the raw sender sends no heartbeats
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, _) = try await peers.rawGuest()
            let transfer = Array(repeating: UInt8(5), count: 16)
            let digest = Array(Data(base64Encoded: "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")!)  // SHA-256 of "abc"
            let offer = Frame.ResourceOffer(streamID: 1, transfer: transfer, size: 3, digest: digest, name: "abc.txt")
            raw.send(.resourceOffer(offer))
            let posted = try #require(await offers.first { $0.name == "abc.txt" })
            let receiving = try await posted.accept(into: try ResourceScenarios.emptyDirectory())
            #expect(await eventually { raw.receivedFrames.contains(.resourceAnswer(transfer: transfer, verdict: .accept, offset: 0, reason: nil)) })
            raw.send(.streamData(id: 1, bytes: Data("abc".utf8)))
            raw.send(.streamClose(id: 1, end: .finished, reason: nil))
            _ = try await receiving.outcome()
            let saved = Frame.resourceResult(transfer: transfer, outcome: .saved, reason: nil)
            #expect(await eventually { raw.receivedFrames.contains(saved) })

            var again = offer
            again.streamID = 3
            raw.send(.resourceOffer(again))
            #expect(await eventually { raw.receivedFrames.count { $0 == saved } == 2 }, "\(raw.receivedFrames.suffix(3))")
            #expect(offers.all.count == 1, "the ended transfer was offered to the application again")

            await peers.network.advanceTime(by: peers.host.configuration.resourceResumeWindow + .seconds(1))
            var late = offer
            late.streamID = 5
            raw.send(.resourceOffer(late))
            #expect(await eventually { offers.all.count == 2 }, "past the window, nothing of the transfer is kept")
            #expect(!raw.isClosed)
        }
    }
}
