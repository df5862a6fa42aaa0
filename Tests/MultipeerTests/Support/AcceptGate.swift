import Dispatch
import EventBus
import Multipeer
import MultipeerTestSupport
import MultipeerTesting

/// An in-memory network for a host whose ACCEPT frames are held back at the connection until the
/// test lets them go: the test looks at the host while it is handing an ACCEPT over.
final class AcceptGate: Transport, Sendable {
    private let network: InMemoryNetwork
    private let held = DispatchSemaphore(value: 0)
    /// Whether an ACCEPT is being held now.
    let holding = Watched(false)

    init(_ network: InMemoryNetwork) { self.network = network }

    var clock: any SessionClock { network.clock }
    func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

    /// Lets the held ACCEPT go on.
    func release() { held.signal() }

    func listen(port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) async throws(MultipeerError) -> any Listener {
        try await network.listen(port: port, options: options) { [self] in Tap(makeHandler(), gate: self) }
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        try await network.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: handler)
    }

    /// Called with an ACCEPT being sent: holds it (the sending thread) until ``release()``.
    fileprivate func hold() {
        holding.withLock { $0 = true }
        held.wait()
        holding.withLock { $0 = false }
    }

    /// Gives the session the gated connection in every call.
    private final class Tap: ConnectionHandler {
        let inner: any ConnectionHandler
        let gate: AcceptGate
        let gated = Locked<Gated?>(nil)
        init(_ inner: any ConnectionHandler, gate: AcceptGate) {
            self.inner = inner
            self.gate = gate
        }
        func wrapped(_ connection: any Connection) -> Gated {
            gated.withLock { gated in
                if let gated { return gated }
                let made = Gated(connection, gate: gate)
                gated = made
                return made
            }
        }
        func connectionDidOpen(_ connection: any Connection) { inner.connectionDidOpen(wrapped(connection)) }
        func connection(_ connection: any Connection, didReceive frame: Frame) { inner.connection(wrapped(connection), didReceive: frame) }
        func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { inner.connection(wrapped(connection), didCloseWith: error) }
        func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
            inner.connection(wrapped(connection), didChangeWritability: isWritable)
        }
    }

    /// A connection whose ACCEPT frames wait for the gate.
    private final class Gated: Connection {
        let base: any Connection
        let gate: AcceptGate
        init(_ base: any Connection, gate: AcceptGate) {
            self.base = base
            self.gate = gate
        }
        var remoteDescription: String { base.remoteDescription }
        var remoteAddress: String { base.remoteAddress }
        var provenPeer: PeerFingerprint? { base.provenPeer }
        var provenOwner: PeerFingerprint? { base.provenOwner }
        var localKey: PeerFingerprint? { base.localKey }
        func send(_ frame: EncodedFrame) {
            if frame.bytes.count > WireProtocol.lengthPrefixBytes, frame.bytes[WireProtocol.lengthPrefixBytes] == Self.acceptKind { gate.hold() }
            base.send(frame)
        }
        func close() { base.close() }
        func abort() { base.abort() }
        func pauseReading() { base.pauseReading() }
        func resumeReading() { base.resumeReading() }
        /// ACCEPT's kind byte (PROTOCOL.md §3.2).
        static let acceptKind: UInt8 = 0x02
    }
}
