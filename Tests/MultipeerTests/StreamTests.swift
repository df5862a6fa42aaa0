import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Byte streams over the in-memory network: the shared scenarios (the TLS suite runs them too),
/// the limits, and a hand-driven peer that breaks each rule of PROTOCOL.md §3.8.
@Suite("Byte streams over the in-memory network", .timeLimit(.minutes(2)))
struct StreamTests {
    /// Runs `body` with scenarios for a connected host and guest.
    func withConnected(_ body: (StreamScenarios, TwoPeers) async throws -> Void) async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = StreamScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            try await body(scenarios, peers)
        }
    }

    @Test("A reader that pauses holds its writer at the window while messages flow both ways; reading lets it finish")
    func pausedReader() async throws {
        try await withConnected { scenarios, _ in try await scenarios.pausedReader() }
    }

    @Test("Two streams one way, one the other way, and messages both ways at once: all intact and in order")
    func streamsAndMessages() async throws {
        try await withConnected { scenarios, _ in try await scenarios.streamsAndMessages() }
    }

    @Test("A reset by either side ends the other's side with streamReset and a sentence; the link goes on")
    func resets() async throws {
        try await withConnected { scenarios, _ in try await scenarios.resets() }
    }

    @Test("A link cut without a goodbye ends the reader's sequence and a waiting write with streamInterrupted")
    func linkCut() async throws {
        try await withConnected { scenarios, peers in
            try await scenarios.linkDrop {
                peers.network.severConnections(toPort: peers.port)
                await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + .seconds(1))
            }
        }
    }

    @Test("A stream let go of without finish or cancel is cancelled: its reader hears streamReset, not a finished stream")
    func droppedWriter() async throws {
        try await withConnected { scenarios, peers in
            do {
                let writer = try await peers.guest.openStream(named: "forgotten", to: peers.host.localPeer)
                try await writer.write(Data("half".utf8))
            }
            let incoming = try await StreamScenarios.incoming(scenarios.hostStreams, named: "forgotten")
            do {
                _ = try await StreamScenarios.readAll(incoming)
                Issue.record("a stream whose writer was let go of ended as if finished")
            } catch let error as MultipeerError {
                #expect(error.code == .streamReset)
            }
        }
    }

    @Test("A stream opened as soon as the inviter is accepted is posted after the peer's connected event, even when an ask policy accepts it")
    func connectedBeforeStream() async throws {
        for _ in 0..<30 {
            // Not about timeouts: a loaded machine must not drop the peers between the events.
            try await withTwoPeers(policy: .ask { _ in .accept }, configuration: .notAboutTimeouts) { peers async throws in
                let order = Locked<[String]>([])
                let guestPeer = peers.guest.localPeer
                let a = peers.host.events.observe(.stateChanged) { change in
                    if change.peer == guestPeer { order.withLock { $0.append(change.state.rawValue) } }
                }
                let b = peers.host.events.observe(.streamOpened) { _ in order.withLock { $0.append("stream") } }
                let host = peers.host.localPeer
                let guest = peers.guest
                let c = peers.guest.events.observe(.stateChanged) { change in
                    if change.state == .connected { Task { try await guest.openStream(named: "early", to: host).finish() } }
                }
                try await peers.connect()
                #expect(await eventually { order.value.contains("stream") })
                #expect(order.value == ["connecting", "connected", "stream"])
                withExtendedLifetime((a, b, c)) {}
            }
        }
    }

    @Test("Stream names must be 1 to 255 bytes without control characters", arguments: ["", "a\u{1B}[31m", "a\nb", "x\u{202E}y", String(repeating: "é", count: 128)])
    func invalidNames(name: String) async throws {
        try await withConnected { scenarios, peers in
            do {
                _ = try await peers.guest.openStream(named: name, to: peers.host.localPeer)
                Issue.record("opened a stream named \(name.debugDescription)")
            } catch let error as MultipeerError {
                #expect(error.code == .invalidStreamName)
                #expect(error.message.hasSuffix("."))
            }
        }
    }

    @Test("A stream to a peer that is not connected, and one past the limit of open streams, are refused with a sentence")
    func localLimits() async throws {
        var configuration = SessionConfiguration.notAboutTimeouts
        configuration.maximumStreamsPerLink = 3
        try await withTwoPeers(configuration: configuration) { peers async throws in
            do {
                _ = try await peers.guest.openStream(named: "early", to: peers.host.localPeer)
                Issue.record("opened a stream before connecting")
            } catch let error as MultipeerError {
                #expect(error.code == .peerNotConnected)
            }
            try await peers.connect()
            var open: [OutgoingStream] = []
            for index in 0..<3 { open.append(try await peers.guest.openStream(named: "s\(index)", to: peers.host.localPeer)) }
            do {
                _ = try await peers.guest.openStream(named: "one too many", to: peers.host.localPeer)
                Issue.record("opened a fourth stream")
            } catch let error as MultipeerError {
                #expect(error.code == .tooManyStreams)
                #expect(error.message.contains("alice"))
            }
            open[0].finish()
            _ = try await peers.guest.openStream(named: "room again", to: peers.host.localPeer)
        }
    }
}

/// A peer driven frame by frame: it completes the handshake as an inviter of version 3 (odd
/// stream ids), then breaks one rule of §3.8 at a time.
@Suite("Byte streams: a peer that breaks the rules", .timeLimit(.minutes(1)))
struct StreamViolationTests {
    /// Sends `frames` and expects the host to say GOODBYE "protocol violation", close, and
    /// report the peer lost with a sentence containing `why`.
    func expectViolation(_ frames: [Frame], why: String, features: UInt32 = WireProtocol.features) async throws {
        try await withTwoPeers { peers async throws in
            let (raw, mallory) = try await peers.rawGuest(features: features)
            for frame in frames { raw.send(frame) }
            #expect(await eventually { raw.isClosed })
            #expect(raw.receivedFrames.last == .goodbye(reason: "protocol violation"))
            let lost = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error) = lost?.reason else {
                Issue.record("expected a lost peer, got \(String(describing: lost))")
                return
            }
            #expect(error.code == .protocolViolation)
            #expect(error.message.contains(why), "\(error.message)")
        }
    }

    @Test("A session of messages only announces no feature, refuses a peer's stream as a protocol violation, and opens none itself")
    func messagesOnly() async throws {
        var configuration = SessionConfiguration()
        configuration.features = WireProtocol.messagesOnly
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let (raw, _) = try await peers.rawGuest()
            let accept = raw.receivedFrames.lazy.compactMap { if case .accept(let accept) = $0 { accept } else { nil } }.first
            #expect(accept?.features == WireProtocol.messagesOnly)
            raw.send(.streamOpen(id: 1, name: "parked"))
            #expect(await eventually { raw.isClosed })
            #expect(raw.receivedFrames.last == .goodbye(reason: "protocol violation"))
            try await peers.connect()
            await #expect(throws: MultipeerError.self) { _ = try await peers.guest.openStream(named: "s", to: peers.host.localPeer) }
        }
    }

    @Test("Data for a stream id never opened")
    func neverOpened() async throws {
        try await expectViolation([.streamData(id: 5, bytes: Data([1]))], why: "never opened")
    }

    @Test("A stream opened twice with the same id, and one reusing an older id")
    func duplicateID() async throws {
        try await expectViolation([.streamOpen(id: 1, name: "a"), .streamOpen(id: 1, name: "b")], why: "opened again")
        try await expectViolation([.streamOpen(id: 5, name: "a"), .streamOpen(id: 3, name: "b")], why: "opened again")
    }

    @Test("A stream opened with an id of the host's parity")
    func wrongParity() async throws {
        try await expectViolation([.streamOpen(id: 2, name: "a")], why: "this side's")
    }

    @Test("Data beyond the stream's window")
    func beyondWindow() async throws {
        let chunk = Data(repeating: 7, count: 60 * 1024)
        let window = SessionConfiguration().streamWindow
        let chunks = Array(repeating: Frame.streamData(id: 1, bytes: chunk), count: window / chunk.count)
        let rest = Frame.streamData(id: 1, bytes: Data(repeating: 7, count: window - chunks.count * chunk.count + 1))
        try await expectViolation([.streamOpen(id: 1, name: "flood")] + chunks + [rest], why: "than its window allows")
    }

    @Test("A window update for a stream the host never opened, and data after a finished close")
    func strayFrames() async throws {
        try await expectViolation([.streamWindow(id: 2, credit: 10)], why: "never opened")
        try await expectViolation(
            [.streamOpen(id: 1, name: "a"), .streamClose(id: 1, end: .finished, reason: nil), .streamData(id: 1, bytes: Data([1]))], why: "after its end")
    }

    @Test("Stream frames on a link whose inviter did not announce streams")
    func withoutFeature() async throws {
        try await expectViolation([.streamOpen(id: 1, name: "a")], why: "without streams", features: 0)
    }

    @Test("A peer opening streams past the limit has each one refused alone; the link and its messages go on")
    func tooManyFromPeer() async throws {
        try await withTwoPeers { peers async throws in
            let (raw, mallory) = try await peers.rawGuest()
            let opened = EventLog(peers.host.events, .streamOpened)
            let limit = SessionConfiguration().maximumStreamsPerLink
            for index in 0..<(limit + 100) { raw.send(.streamOpen(id: UInt32(2 * index + 1), name: "s\(index)")) }
            raw.send(.streamData(id: UInt32(2 * limit + 1), bytes: Data([1])))  // to a refused stream: ignored
            raw.send(.data(messageType: Chat.messageType, payload: try JSONEncoder().encode(Chat(text: "after the flood"))))
            #expect(await peers.hostData.first { $0.peer == mallory } != nil)
            #expect(opened.all.count == limit)
            // The resets travel the other way from the chat line: wait for them, not for the line.
            let isReset: @Sendable (Frame) -> Bool = {
                if case .streamClose(_, .reset, let reason) = $0 { reason == "too many open streams (limit \(limit))" } else { false }
            }
            let frames = await raw.frames(until: { $0.count(where: isReset) >= 100 }, before: .now + .seconds(30))
            #expect(frames.count(where: isReset) == 100)
            #expect(!raw.isClosed)
            #expect(peers.host.connectedPeers.contains(mallory))
        }
    }
}

/// The in-memory network's connections never fill up; this transport lets a test say that the
/// guest's link is backlogged (as NIO reports when more than the high water mark waits for the
/// peer) and drained again.
final class BacklogTap: Transport, @unchecked Sendable {
    private let network: InMemoryNetwork
    private let taps = Locked<[Tap]>([])

    init(_ network: InMemoryNetwork) { self.network = network }
    /// The real clock, as before transports said which they keep.
    var clock: any SessionClock { SystemClock() }
    func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

    final class Tap: ConnectionHandler, @unchecked Sendable {
        let inner: any ConnectionHandler
        let connection = Locked<(any Connection)?>(nil)
        init(_ inner: any ConnectionHandler) { self.inner = inner }
        func connectionDidOpen(_ connection: any Connection) {
            self.connection.withLock { $0 = connection }
            inner.connectionDidOpen(connection)
        }
        func connection(_ connection: any Connection, didReceive frame: Frame) { inner.connection(connection, didReceive: frame) }
        func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { inner.connection(connection, didCloseWith: error) }
        func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
            inner.connection(connection, didChangeWritability: isWritable)
        }
    }

    func listen(port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) async throws(MultipeerError) -> any Listener {
        try await network.listen(port: port, options: options, makeHandler: makeHandler)
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        let tap = Tap(handler)
        taps.withLock { $0.append(tap) }
        return try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: tap)
    }

    /// Reports every connection this transport made as writable or not.
    func setWritable(_ writable: Bool) {
        for tap in taps.value {
            if let connection = tap.connection.value { tap.connection(connection, didChangeWritability: writable) }
        }
    }
}

@Suite("Byte streams share a backlogged link", .timeLimit(.minutes(1)))
struct StreamBacklogTests {
    @Test("While the link is backlogged, stream data waits and messages still go; once it drains the stream goes on, whole")
    func backloggedLink() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let tap = BacklogTap(network)
            let link = try await BulkStream.open(in: scope, network: network, guestTransport: tap)
            let (host, guest, scenarios, writer, incoming) = (link.host, link.guest, link.scenarios, link.writer, link.incoming)
            tap.setWritable(false)
            #expect(guest.isBacklogged(host.localPeer))
            let data = StreamScenarios.pattern(100_000, seed: 9)
            let done = Locked(false)
            let writing = Task {
                try await writer.write(data)
                done.withLock { $0 = true }
            }
            try guest.send(Chat(text: "ahead of the stream"), to: [host.localPeer])
            #expect(await scenarios.hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "ahead of the stream") } != nil)
            #expect(!done.value, "stream data went onto a backlogged link")
            tap.setWritable(true)
            try await writing.value
            writer.finish()
            #expect(try await StreamScenarios.readAll(incoming) == data)
        }
    }
}
