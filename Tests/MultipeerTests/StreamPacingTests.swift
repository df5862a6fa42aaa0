import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A stream's bytes wait in the writer's own queue, not the link's: at most two batches of one
/// stream are handed to the link and not yet written below it, so a message sent meanwhile
/// waits behind no more than those, whatever the window.
@Suite("A stream hands its link two batches at a time", .timeLimit(.minutes(1)))
struct StreamPacingTests {
    @Test("With the link writing nothing below, a 600 KB write hands it two batches and stops; a message still goes; as the link writes, the rest follows, whole")
    func twoBatchesInTheLink() async throws {
        try await Self.twoBatchesHeld(configuration: .notAboutTimeouts, bytes: 600_000, seed: 5, chunksPerBatch: 4)
    }

    /// A write of `bytes` to a link that writes nothing below it: exactly two batches of
    /// `chunksPerBatch` chunks are handed to it, a message still goes beside them, and as the
    /// link writes a batch at a time the rest follows, whole.
    static func twoBatchesHeld(configuration: SessionConfiguration, bytes: Int, seed: UInt8, chunksPerBatch: Int) async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let tap = HeldWritesTap(network)
            let link = try await BulkStream.open(in: scope, network: network, guestTransport: tap, configuration: configuration)
            let data = StreamScenarios.pattern(bytes, seed: seed)
            let reading = Task { try await StreamScenarios.readAll(link.incoming) }
            let writing = Task { try await link.writer.write(data) }
            let twoBatches = 2 * chunksPerBatch * link.guest.configuration.streamChunkLength
            #expect(await eventually { tap.handed.value >= twoBatches })
            try link.guest.send(Chat(text: "beside the stream"), to: [link.host.localPeer])
            #expect(await link.scenarios.hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "beside the stream") } != nil)
            #expect(tap.handed.value == twoBatches, "not two batches of \(chunksPerBatch) chunks handed to a link that wrote none of them")
            #expect(tap.heldCount == 2)
            // The link writes what it holds, a batch at a time: the rest of the write follows.
            // (Stopped by the suite's time limit if it never does: a failure, not a hang.)
            while !(await eventually(within: .milliseconds(20)) { tap.handed.value == data.count && tap.heldCount == 0 }) {
                try Task.checkCancellation()
                tap.writeOne()
            }
            try await writing.value
            link.writer.finish()
            #expect(try await reading.value == data)
        }
    }
}

/// An in-memory network whose connecting side's links never finish writing a stream's bytes
/// below them until the test says so (``writeOne()``): the frames go, the `written` calls wait.
final class HeldWritesTap: TappedNetwork, @unchecked Sendable {  // its state is `Locked`
    /// Stream bytes handed to the links so far.
    let handed = Locked(0)
    private let held = Locked<[@Sendable () -> Void]>([])

    init(_ network: InMemoryNetwork) {
        let handed = handed
        let held = held
        super.init(network, tapping: .connecting, clock: SystemClock()) { inner in
            WrappingHandler(inner) { Held($0, handed: handed, held: held) }
        }
    }

    /// How many hand-offs wait to be written.
    var heldCount: Int { held.value.count }

    /// Lets the oldest hand-off be written.
    func writeOne() {
        let first = held.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        first?()
    }

    private final class Held: ForwardingConnection, @unchecked Sendable {  // its state is `Locked`
        let handed: Locked<Int>
        let held: Locked<[@Sendable () -> Void]>
        init(_ base: any Connection, handed: Locked<Int>, held: Locked<[@Sendable () -> Void]>) {
            self.handed = handed
            self.held = held
            super.init(base)
        }
        override func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
            handed.withLock { $0 += bytes.count }
            held.withLock { $0.append(written) }
            base.sendStreamData(id: id, bytes, chunkLength: chunkLength) {}
        }
    }
}
