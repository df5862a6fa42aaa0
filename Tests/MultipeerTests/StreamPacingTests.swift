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
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let tap = HeldWritesTap(network)
            let host = scope.session(localPeer: peer("alice"), transport: network)
            let guest = scope.session(localPeer: peer("bob"), transport: tap)
            let scenarios = StreamScenarios(host: host, guest: guest)
            let port = try await host.startListening()
            #expect(try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(host.localPeer))
            #expect(await eventually { host.connectedPeers == [guest.localPeer] })
            let writer = try await guest.openStream(named: "bulk", to: host.localPeer)
            let incoming = try await StreamScenarios.incoming(scenarios.hostStreams, named: "bulk")
            let data = StreamScenarios.pattern(600_000, seed: 5)
            let reading = Task { try await StreamScenarios.readAll(incoming) }
            let writing = Task { try await writer.write(data) }
            let chunk = guest.configuration.streamChunkLength
            let twoBatches = 2 * 4 * chunk
            #expect(await eventually { tap.handed.value >= twoBatches })
            try guest.send(Chat(text: "beside the stream"), to: [host.localPeer])
            #expect(await scenarios.hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "beside the stream") } != nil)
            #expect(tap.handed.value == twoBatches, "more than two batches handed to a link that wrote none of them")
            // The link writes what it holds, a batch at a time: the rest of the write follows.
            while !(await eventually(within: .milliseconds(20)) { tap.handed.value == data.count && tap.heldCount == 0 }) {
                tap.writeOne()
            }
            try await writing.value
            writer.finish()
            #expect(try await reading.value == data)
        }
    }
}

/// An in-memory network whose connecting side's links never finish writing a stream's bytes
/// below them until the test says so (``writeOne()``): the frames go, the `written` calls wait.
final class HeldWritesTap: Transport, @unchecked Sendable {
    private let network: InMemoryNetwork
    /// Stream bytes handed to the links so far.
    let handed = Locked(0)
    private let held = Locked<[@Sendable () -> Void]>([])

    init(_ network: InMemoryNetwork) { self.network = network }
    var clock: any SessionClock { SystemClock() }
    func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

    /// How many hand-offs wait to be written.
    var heldCount: Int { held.value.count }

    /// Lets the oldest hand-off be written.
    func writeOne() {
        let first = held.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        first?()
    }

    func listen(port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) async throws(MultipeerError) -> any Listener {
        try await network.listen(port: port, options: options, makeHandler: makeHandler)
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        let tap = Tap(handler, owner: self)
        _ = try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: tap)
        return tap.wrapped.value!
    }

    final class Tap: ConnectionHandler, @unchecked Sendable {
        let inner: any ConnectionHandler
        let owner: HeldWritesTap
        let wrapped = Locked<Held?>(nil)
        init(_ inner: any ConnectionHandler, owner: HeldWritesTap) {
            self.inner = inner
            self.owner = owner
        }
        func held(_ connection: any Connection) -> Held {
            wrapped.withLock { wrapped in
                if let wrapped { return wrapped }
                let made = Held(connection, owner: owner)
                wrapped = made
                return made
            }
        }
        func connectionDidOpen(_ connection: any Connection) { inner.connectionDidOpen(held(connection)) }
        func connection(_ connection: any Connection, didReceive frame: Frame) { inner.connection(held(connection), didReceive: frame) }
        func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { inner.connection(held(connection), didCloseWith: error) }
    }

    final class Held: Connection, @unchecked Sendable {
        let base: any Connection
        let owner: HeldWritesTap
        init(_ base: any Connection, owner: HeldWritesTap) {
            self.base = base
            self.owner = owner
        }
        var remoteDescription: String { base.remoteDescription }
        var remoteAddress: String { base.remoteAddress }
        func send(_ frame: EncodedFrame) { base.send(frame) }
        func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
            owner.handed.withLock { $0 += bytes.count }
            owner.held.withLock { $0.append(written) }
            base.sendStreamData(id: id, bytes, chunkLength: chunkLength) {}
        }
        func close() { base.close() }
        func abort() { base.abort() }
        func pauseReading() { base.pauseReading() }
        func resumeReading() { base.resumeReading() }
    }
}
