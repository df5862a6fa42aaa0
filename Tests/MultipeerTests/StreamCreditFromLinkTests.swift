import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import MultipeerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A reader's credit goes from the link's own thread at the end of a read while the writer
/// still holds a batch's worth (more bytes are on their way, so such a read comes), and from the
/// reading task at once when it does not (no read may come until the writer has credit).
@Suite("A reader's credit goes from the link's thread while more bytes are on their way", .timeLimit(.minutes(1)))
struct StreamCreditFromLinkTests {
    @Test("With reads' ends signalled: a grant made while the writer holds ≥ 64 KiB waits for the next read's end and goes from the link's thread; one made at an empty window goes at once; every byte arrives")
    func deferredWhileBytesAreOnTheirWay() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let tap = ReadEndsTap(network)
            let host = scope.session(localPeer: peer("alice"), transport: network)
            let guest = scope.session(localPeer: peer("bob"), transport: tap)
            let scenarios = StreamScenarios(host: host, guest: guest)
            let port = try await host.startListening()
            #expect(try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(host.localPeer))
            #expect(await eventually { guest.connectedPeers == [host.localPeer] })
            let window = guest.configuration.streamWindow
            let writer = try await host.openStream(named: "bulk", to: guest.localPeer)
            let incoming = try await StreamScenarios.incoming(scenarios.guestStreams, named: "bulk")
            var chunks = incoming.chunks.makeAsyncIterator()
            var received = Data()
            func read(upTo count: Int) async throws {
                while received.count < count, let chunk = try await chunks.next() { received.append(chunk) }
            }
            let data = StreamScenarios.pattern(window / 4 + 16_384 + 2 * window, seed: 9)
            var offset = 0
            func writeNext(_ count: Int) async throws {
                try await writer.write(data[offset..<(offset + count)])
                offset += count
            }

            // A quarter window read: its grant is due while the writer still holds three quarters,
            // so it waits for a read's end (the last of these bytes' or the next bytes').
            try await writeNext(window / 4)
            try await read(upTo: window / 4)
            try await writeNext(16_384)
            #expect(await eventually { tap.grants.value.count == 1 })
            #expect(tap.grants.value.first?.credit == UInt32(window / 4))
            #expect(tap.grants.value.first?.fromReadEnd == true, "the grant went from the reading task")

            // The writer uses up its credit (a window in all) and every byte has arrived (a
            // message behind them did): the next grant cannot wait for a read, none would come;
            // it goes from the reading task at once.
            try await writeNext(window - 16_384)
            try host.send(Chat(text: "after the window"), to: [guest.localPeer])
            #expect(await scenarios.guestData.first { (try? $0.decode(Chat.self)) == Chat(text: "after the window") } != nil)
            try await read(upTo: offset)
            #expect(tap.grants.value.count >= 2)
            #expect(tap.grants.value.dropFirst().first?.fromReadEnd == false, "a grant at an empty window waited for a read")

            // Whatever is left goes through, every byte in order.
            let rest = data[offset...]
            let writing = Task { try await writer.write(rest) }
            try await read(upTo: data.count)
            try await writing.value
            writer.finish()
            #expect(received == data)
            #expect(try await chunks.next() == nil)
        }
    }
}

/// An in-memory network whose connecting side's links say where each read ends
/// (``ConnectionHandler/connectionDidFinishDelivering(_:)``) after every frame, as
/// `TCPTransport` does after each read from its socket, and which notes each STREAM_WINDOW
/// frame those links send, and whether it went from inside such a delivery.
final class ReadEndsTap: Transport, @unchecked Sendable {  // its state is in `Locked`s
    private let network: InMemoryNetwork
    /// The STREAM_WINDOW frames sent, in order.
    let grants = Locked<[(credit: UInt32, fromReadEnd: Bool)]>([])
    /// The threads delivering a read right now.
    fileprivate let delivering = Locked<Set<UInt>>([])

    init(_ network: InMemoryNetwork) { self.network = network }
    var clock: any SessionClock { SystemClock() }
    func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

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

    final class Tap: ConnectionHandler, @unchecked Sendable {  // `wrapped` is a `Locked`
        let inner: any ConnectionHandler
        let owner: ReadEndsTap
        let wrapped = Locked<Reporting?>(nil)
        init(_ inner: any ConnectionHandler, owner: ReadEndsTap) {
            self.inner = inner
            self.owner = owner
        }
        func reporting(_ connection: any Connection) -> Reporting {
            wrapped.withLock { wrapped in
                if let wrapped { return wrapped }
                let made = Reporting(connection, owner: owner)
                wrapped = made
                return made
            }
        }
        func connectionDidOpen(_ connection: any Connection) { inner.connectionDidOpen(reporting(connection)) }
        func connection(_ connection: any Connection, didReceive frame: Frame) {
            let reporting = reporting(connection)
            inner.connection(reporting, didReceive: frame)
            let thread = UInt(pthread_self())
            owner.delivering.withLock { _ = $0.insert(thread) }
            inner.connectionDidFinishDelivering(reporting)
            owner.delivering.withLock { _ = $0.remove(thread) }
        }
        func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { inner.connection(reporting(connection), didCloseWith: error) }
    }

    final class Reporting: Connection, @unchecked Sendable {  // immutable; the owner's state is locked
        let base: any Connection
        let owner: ReadEndsTap
        init(_ base: any Connection, owner: ReadEndsTap) {
            self.base = base
            self.owner = owner
        }
        var remoteDescription: String { base.remoteDescription }
        var remoteAddress: String { base.remoteAddress }
        func send(_ frame: EncodedFrame) {
            if case .streamWindow(_, let credit)? = try? FrameCodec.decode(frame.bytes.dropFirst(WireProtocol.lengthPrefixBytes)) {
                let fromReadEnd = owner.delivering.withLock { $0.contains(UInt(pthread_self())) }
                owner.grants.withLock { $0.append((credit, fromReadEnd)) }
            }
            base.send(frame)
        }
        func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
            base.sendStreamData(id: id, bytes, chunkLength: chunkLength, written: written)
        }
        func close() { base.close() }
        func abort() { base.abort() }
        func pauseReading() { base.pauseReading() }
        func resumeReading() { base.resumeReading() }
    }
}
