import Multipeer
import MultipeerTestSupport
import MultipeerNIO
import Testing

/// A listener on 127.0.0.1 and one connection to it, with both ends' handlers.
struct LoopbackPair {
    let transport: TCPTransport
    let listener: any Listener
    let accepted: AcceptedHandlers
    let client: RecordingHandler
    let clientConnection: any Connection
    let server: RecordingHandler
    let serverConnection: any Connection

    static func open(
        transport: TCPTransport = TCPTransport(bindHost: "127.0.0.1"),
        serverOptions: LinkOptions = LinkOptions(),
        clientOptions: LinkOptions = LinkOptions(),
        serverEchoes: Bool = false
    ) async throws -> LoopbackPair {
        let accepted = AcceptedHandlers(echoes: serverEchoes)
        let listener = try await transport.listen(port: 0, options: serverOptions, makeHandler: accepted.make)
        let client = RecordingHandler()
        let connection = try await transport.connect(
            to: Endpoint(host: "127.0.0.1", port: listener.port), options: clientOptions, timeout: .seconds(30), handler: client
        )
        let server = try #require(await accepted.first())
        let serverConnection = try #require(server.connection)
        return LoopbackPair(
            transport: transport, listener: listener, accepted: accepted, client: client,
            clientConnection: connection, server: server, serverConnection: serverConnection
        )
    }
}

extension LoopbackPair {
    /// Runs `body` with a fresh pair, then closes both connections and the listener, however
    /// `body` ends.
    static func with(
        transport: TCPTransport = TCPTransport(bindHost: "127.0.0.1"),
        serverOptions: LinkOptions = LinkOptions(),
        clientOptions: LinkOptions = LinkOptions(),
        serverEchoes: Bool = false,
        _ body: (LoopbackPair) async throws -> Void
    ) async throws {
        let pair = try await open(transport: transport, serverOptions: serverOptions, clientOptions: clientOptions, serverEchoes: serverEchoes)
        try await withTearDown({ try await body(pair) }, tearDown: { await pair.close() })
    }

    func close() async {
        clientConnection.close()
        serverConnection.close()
        await listener.close()
    }
}

/// Runs `body` with a listener of `transport` on a free port, and closes it afterwards however
/// `body` ends (connections it accepted are the test's to close).
func withListener(
    _ transport: TCPTransport = TCPTransport(bindHost: "127.0.0.1"), options: LinkOptions = LinkOptions(),
    makeHandler: @escaping @Sendable () -> any ConnectionHandler, _ body: (any Listener) async throws -> Void
) async throws {
    let listener = try await transport.listen(port: 0, options: options, makeHandler: makeHandler)
    try await withTearDown({ try await body(listener) }, tearDown: { await listener.close() })
}
