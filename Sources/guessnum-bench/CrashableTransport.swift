import Multipeer
import MultipeerNIO
import Synchronization

/// The host's TCP transport, which the benchmark can make crash: every accepted connection
/// closes at once and the listener stops, without a goodbye from the session, as when the
/// host's program is killed (the kernel then closes its sockets).
final class CrashableTransport: Transport {
    let base: TCPTransport
    private let state = Mutex<(listeners: [any Listener], connections: [ObjectIdentifier: any Connection])>(([], [:]))

    init(base: TCPTransport) {
        self.base = base
    }

    var provesPeers: Bool { base.provesPeers }
    var clock: any SessionClock { base.clock }
    func localInterfaces() -> [InterfaceAddress] { base.localInterfaces() }
    func makeResourceFiles() -> any ResourceFiles { base.makeResourceFiles() }

    func listen(
        port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener {
        let listener = try await base.listen(port: port, options: options) { [weak self] in
            TrackedHandler(handler: makeHandler(), owner: self)
        }
        state.withLock { $0.listeners.append(listener) }
        return listener
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        try await base.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: handler)
    }

    func broadcast(_ frame: EncodedFrame, to connections: [any Connection]) {
        base.broadcast(frame, to: connections)
    }

    /// Stops listening and closes every connection, saying nothing.
    func crash() async {
        let (listeners, connections) = state.withLock { state in
            defer { state = ([], [:]) }
            return (state.listeners, Array(state.connections.values))
        }
        for connection in connections { connection.close() }
        for listener in listeners { await listener.close() }
    }

    fileprivate func opened(_ connection: any Connection) {
        state.withLock { $0.connections[ObjectIdentifier(connection)] = connection }
    }

    fileprivate func closed(_ connection: any Connection) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }
}

/// Passes everything to the session's handler, noting each connection's life for the crash.
private final class TrackedHandler: ConnectionHandler {
    let handler: any ConnectionHandler
    let owner: CrashableTransport?

    init(handler: any ConnectionHandler, owner: CrashableTransport?) {
        self.handler = handler
        self.owner = owner
    }

    func connectionDidOpen(_ connection: any Connection) {
        owner?.opened(connection)
        handler.connectionDidOpen(connection)
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        handler.connection(connection, didReceive: frame)
    }

    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
        handler.connection(connection, didChangeWritability: isWritable)
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        owner?.closed(connection)
        handler.connection(connection, didCloseWith: error)
    }
}
