import Multipeer
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
        serverEchoes: Bool = false
    ) async throws -> LoopbackPair {
        let accepted = AcceptedHandlers(echoes: serverEchoes)
        let listener = try await transport.listen(port: 0, options: serverOptions, makeHandler: accepted.make)
        let client = RecordingHandler()
        let connection = try await transport.connect(
            to: Endpoint(host: "127.0.0.1", port: listener.port), options: LinkOptions(), timeout: .seconds(5), handler: client
        )
        let server = try #require(await accepted.first())
        let serverConnection = try #require(server.connection)
        return LoopbackPair(
            transport: transport, listener: listener, accepted: accepted, client: client,
            clientConnection: connection, server: server, serverConnection: serverConnection
        )
    }
}
