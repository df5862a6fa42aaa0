import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting

/// A connection that passes everything on to `base`: tests subclass it to watch or hold what a
/// session sends (``HeldWritesTap``, ``ReadEndsTap``, ``AcceptGate``).
class ForwardingConnection: Connection, @unchecked Sendable {  // immutable; subclasses lock what they keep
    let base: any Connection

    init(_ base: any Connection) { self.base = base }

    var remoteDescription: String { base.remoteDescription }
    var remoteAddress: String { base.remoteAddress }
    var provenPeer: PeerFingerprint? { base.provenPeer }
    var provenOwner: PeerFingerprint? { base.provenOwner }
    var localKey: PeerFingerprint? { base.localKey }
    func send(_ frame: EncodedFrame) { base.send(frame) }
    func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
        base.sendStreamData(id: id, bytes, chunkLength: chunkLength, written: written)
    }
    func close() { base.close() }
    func abort() { base.abort() }
    func pauseReading() { base.pauseReading() }
    func resumeReading() { base.resumeReading() }
}

/// A connection handler that gives the session, in every call, the one wrapper `wrap` made of
/// its connection (so that what the session sends goes through the wrapper). Subclasses may
/// change how a frame is delivered (``ReadEndsTap``).
class WrappingHandler: ConnectionHandler, @unchecked Sendable {  // `made` is a `Locked`
    let inner: any ConnectionHandler
    private let wrap: @Sendable (any Connection) -> any Connection
    private let made = Locked<(any Connection)?>(nil)

    init(_ inner: any ConnectionHandler, wrap: @escaping @Sendable (any Connection) -> any Connection) {
        self.inner = inner
        self.wrap = wrap
    }

    /// The wrapper of `connection`, made the first time.
    func wrapped(_ connection: any Connection) -> any Connection {
        made.withLock { made in
            if let made { return made }
            let wrapper = wrap(connection)
            made = wrapper
            return wrapper
        }
    }

    /// The wrapper made so far, if any.
    var wrapper: (any Connection)? { made.value }

    func connectionDidOpen(_ connection: any Connection) { inner.connectionDidOpen(wrapped(connection)) }
    func connection(_ connection: any Connection, didReceive frame: Frame) { inner.connection(wrapped(connection), didReceive: frame) }
    func connectionDidFinishDelivering(_ connection: any Connection) { inner.connectionDidFinishDelivering(wrapped(connection)) }
    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { inner.connection(wrapped(connection), didCloseWith: error) }
    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
        inner.connection(wrapped(connection), didChangeWritability: isWritable)
    }
}

/// An in-memory network whose links, on the side that connects or the side that accepts, go
/// through a ``WrappingHandler`` that `handler` makes: a tap for tests that watch a link.
class TappedNetwork: Transport, @unchecked Sendable {  // immutable
    let network: InMemoryNetwork
    /// Which side's links go through the tap.
    enum Side { case connecting, accepting }
    let side: Side
    let clock: any SessionClock
    private let handler: @Sendable (any ConnectionHandler) -> WrappingHandler

    /// A tap on `side`'s links; its sessions keep `clock` (the network's own when nil).
    init(
        _ network: InMemoryNetwork, tapping side: Side, clock: (any SessionClock)? = nil,
        handler: @escaping @Sendable (any ConnectionHandler) -> WrappingHandler
    ) {
        self.network = network
        self.side = side
        self.clock = clock ?? network.clock
        self.handler = handler
    }

    func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

    func listen(port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) async throws(MultipeerError) -> any Listener {
        guard side == .accepting else { return try await network.listen(port: port, options: options, makeHandler: makeHandler) }
        let handler = handler
        return try await network.listen(port: port, options: options) { handler(makeHandler()) }
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler inner: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        guard side == .connecting else {
            return try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: inner)
        }
        let tap = handler(inner)
        let connection = try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: tap)
        return tap.wrapped(connection)
    }
}

/// Two sessions on `network`, alice hosting and bob (through `guestTransport`) connected to her,
/// with a stream named "bulk" open from bob to alice: the set-up of the tests of how a stream
/// shares its link.
struct BulkStream {
    let host: Session
    let guest: Session
    let scenarios: StreamScenarios
    let writer: OutgoingStream
    let incoming: IncomingStream

    static func open(
        in scope: SessionScope, network: InMemoryNetwork, guestTransport: any Transport, configuration: SessionConfiguration = .notAboutTimeouts
    ) async throws -> BulkStream {
        let host = scope.session(localPeer: peer("alice"), transport: network, configuration: configuration)
        let guest = scope.session(localPeer: peer("bob"), transport: guestTransport, configuration: configuration)
        let scenarios = StreamScenarios(host: host, guest: guest)
        let port = try await host.startListening()
        guard try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(host.localPeer) else {
            throw TestFailure("bob did not connect to alice")
        }
        guard await eventually({ host.connectedPeers == [guest.localPeer] }) else { throw TestFailure("alice did not see bob connected") }
        let writer = try await guest.openStream(named: "bulk", to: host.localPeer)
        let incoming = try await StreamScenarios.incoming(scenarios.hostStreams, named: "bulk")
        return BulkStream(host: host, guest: guest, scenarios: scenarios, writer: writer, incoming: incoming)
    }
}
