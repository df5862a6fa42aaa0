import Multipeer
import MultipeerNIO
import MultipeerTestSupport
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

    @Test("Over TLS, a host that answers the connect but not the handshake is given the open timeout, not the connect timeout, and then a sentence")
    func handshakeGetsTheOpenTimeout() async throws {
        let silent = try UnansweringListener()
        let (_, transport, _) = try SecureSessionTests.keyed("bob")
        let endpoint = try Endpoint(host: "127.0.0.1", port: silent.port)
        let started = ContinuousClock.now
        // The connect timeout is short beside the open timeout but long beside a connect on
        // loopback even on a starved machine (100 ms was not: a side-by-side run's event loop
        // woke past it, and the connect itself timed out).
        let error = await #expect(throws: MultipeerError.self) {
            _ = try await transport.connect(
                to: endpoint, options: LinkOptions(), timeout: .seconds(2), openTimeout: .seconds(4), handler: RecordingHandler())
        }
        // A lower bound only: a busy machine makes this later, never sooner.
        #expect(ContinuousClock.now - started >= .seconds(4), "the handshake had its open timeout")
        #expect(error?.code == .secureHandshakeFailed)
        #expect(error?.message.contains("no answer to the secure handshake within 4 s") == true, "\(String(describing: error))")
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
