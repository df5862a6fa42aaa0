import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A message of 2,048 bytes or more is acknowledged as soon as it arrives (PROTOCOL §5.5), so that
/// its sender need not keep it until 63 more came or the link fell quiet; smaller ones still wait.
/// On the in-memory network's manual clock, which the tests never move: no heartbeat can carry
/// an acknowledgement meanwhile.
@Suite("Acknowledging a large message at once", .timeLimit(.minutes(1)))
struct LargeMessageAcknowledgementTests {
    private func acknowledgements(_ raw: RawConnection) -> [UInt64] {
        raw.receivedFrames.compactMap { if case .acknowledge(let count) = $0 { count } else { nil } }
    }

    @Test("A large message is acknowledged at once with the count of all received; small ones before and after wait for the count of 64")
    func largeAtOnceSmallLater() async throws {
        try await withTwoPeers { peers async throws in
            let (raw, _) = try await peers.rawGuest()
            raw.send(.data(messageType: "chat", payload: Data("hi".utf8)))
            raw.send(.data(messageType: "chat", payload: Data("there".utf8)))
            #expect(await eventually { peers.hostData.all.count == 2 })
            #expect(acknowledgements(raw).isEmpty, "two small messages are not acknowledged yet")

            raw.send(.data(messageType: "state", payload: Data(repeating: 7, count: 2048)))
            #expect(await eventually { acknowledgements(raw) == [3] }, "\(acknowledgements(raw))")

            raw.send(.data(messageType: "state", payload: Data(repeating: 7, count: 2047)))
            #expect(await eventually { peers.hostData.all.count == 4 })
            for index in 0..<62 { raw.send(.data(messageType: "chat", payload: Data("\(index)".utf8))) }
            #expect(await eventually { peers.hostData.all.count == 66 })
            #expect(acknowledgements(raw) == [3], "2,047 bytes and 62 small messages wait")
            raw.send(.data(messageType: "chat", payload: Data("the 64th since".utf8)))
            #expect(await eventually { acknowledgements(raw) == [3, 67] }, "\(acknowledgements(raw))")
        }
    }
}
