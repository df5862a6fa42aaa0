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
final class ReadEndsTap: TappedNetwork, @unchecked Sendable {  // its state is in `Locked`s
    /// The STREAM_WINDOW frames sent, in order.
    let grants = Locked<[(credit: UInt32, fromReadEnd: Bool)]>([])
    /// The threads delivering a read right now.
    fileprivate let delivering = Locked<Set<UInt>>([])

    init(_ network: InMemoryNetwork) {
        let (grants, delivering) = (grants, delivering)
        super.init(network, tapping: .connecting, clock: SystemClock()) { inner in
            Delivering(inner, delivering: delivering) { Reporting($0, grants: grants, delivering: delivering) }
        }
    }

    /// Says where a read ends after every frame, noting the thread meanwhile.
    private final class Delivering: WrappingHandler, @unchecked Sendable {  // its state is `Locked`
        let delivering: Locked<Set<UInt>>
        init(_ inner: any ConnectionHandler, delivering: Locked<Set<UInt>>, wrap: @escaping @Sendable (any Connection) -> any Connection) {
            self.delivering = delivering
            super.init(inner, wrap: wrap)
        }
        override func connection(_ connection: any Connection, didReceive frame: Frame) {
            let reporting = wrapped(connection)
            inner.connection(reporting, didReceive: frame)
            let thread = UInt(pthread_self())
            delivering.withLock { _ = $0.insert(thread) }
            inner.connectionDidFinishDelivering(reporting)
            delivering.withLock { _ = $0.remove(thread) }
        }
    }

    /// Notes each STREAM_WINDOW frame sent, and whether a read was being delivered on its thread.
    private final class Reporting: ForwardingConnection, @unchecked Sendable {  // its state is `Locked`
        let grants: Locked<[(credit: UInt32, fromReadEnd: Bool)]>
        let delivering: Locked<Set<UInt>>
        init(_ base: any Connection, grants: Locked<[(credit: UInt32, fromReadEnd: Bool)]>, delivering: Locked<Set<UInt>>) {
            self.grants = grants
            self.delivering = delivering
            super.init(base)
        }
        override func send(_ frame: EncodedFrame) {
            if case .streamWindow(_, let credit)? = try? FrameCodec.decode(frame.bytes.dropFirst(WireProtocol.lengthPrefixBytes)) {
                let fromReadEnd = delivering.withLock { $0.contains(UInt(pthread_self())) }
                grants.withLock { $0.append((credit, fromReadEnd)) }
            }
            base.send(frame)
        }
    }
}
