import Multipeer
import MultipeerNIO
import Testing

/// Failing to connect or listen, and what closing a listener leaves open.
@Suite("TCP transport failures", .timeLimit(.minutes(1)))
struct TCPTransportFailureTests {
    /// A port that was free a moment ago and is closed now.
    private func closedPort(_ transport: TCPTransport) async throws -> Int {
        let listener = try await transport.listen(port: 0, options: LinkOptions()) { RecordingHandler() }
        await listener.close()
        return listener.port
    }

    @Test func connectingToAClosedPortFails() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let endpoint = try Endpoint(host: "127.0.0.1", port: try await closedPort(transport))
        let handler = RecordingHandler()
        let error = await #expect(throws: MultipeerError.self) {
            _ = try await transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(30), handler: handler)
        }
        #expect(error == .connectionFailed(endpoint, "connection refused"))
        #expect(handler.events.isEmpty, "a connection that never opened is never reported")
    }

    @Test func listeningOnAPortInUseFails() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        try await withListener(transport, makeHandler: { RecordingHandler() }) { first async throws in
            let error = await #expect(throws: MultipeerError.self) {
                _ = try await transport.listen(port: first.port, options: LinkOptions()) { RecordingHandler() }
            }
            #expect(error == .listenFailed(port: first.port, "address already in use"))
        }
    }

    @Test(arguments: [-1, 65536])
    func listeningOnAnImpossiblePortFails(_ port: Int) async throws {
        let error = await #expect(throws: MultipeerError.self) {
            _ = try await TCPTransport(bindHost: "127.0.0.1").listen(port: port, options: LinkOptions()) { RecordingHandler() }
        }
        #expect(error?.code == .listenFailed)
    }

    @Test func closingTheListenerKeepsAcceptedConnections() async throws {
        try await LoopbackPair.with { pair async throws in
            await pair.listener.close()
            await pair.listener.close()  // closing twice is harmless

            pair.clientConnection.send(FrameCodec.encode(.heartbeat))
            #expect(await pair.server.waitForFrames(1))
            pair.serverConnection.send(FrameCodec.encode(.goodbye(reason: "still here")))
            #expect(await pair.client.waitForFrames(1))
            #expect(pair.client.frames == [.goodbye(reason: "still here")])
            #expect(!pair.client.isClosed && !pair.server.isClosed)

            let endpoint = try Endpoint(host: "127.0.0.1", port: pair.listener.port)
            let error = await #expect(throws: MultipeerError.self) {
                _ = try await pair.transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(30), handler: RecordingHandler())
        }
        #expect(error?.code == .connectionFailed)
        #expect(pair.accepted.all.count == 1)
        pair.clientConnection.close()
        #expect(await pair.server.waitForClose())
        }
    }
}
