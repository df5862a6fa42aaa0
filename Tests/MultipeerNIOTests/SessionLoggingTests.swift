import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// What a session logs when a peer misbehaves, over real TCP on loopback.
@Suite("Session logging over real TCP", .timeLimit(.minutes(2)))
struct SessionLoggingTests {
    /// A listening session whose logs are recorded.
    private func listeningHost() async throws -> (Session, RecordingLogHandler.Store, Int) {
        let log = RecordingLogHandler.Store()
        // Not about timeouts: a raw client that sends no heartbeat, on a busy machine, must be
        // logged for what it sent, not dropped first for its silence (real clock, over TCP).
        var configuration = SessionConfiguration.notAboutTimeouts
        configuration.handshakeTimeout = .seconds(60)
        let host = Session(
            localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"), configuration: configuration,
            logger: log.logger(label: "multipeer.session"))
        let port = try await host.startListening()
        return (host, log, port)
    }

    @Test("A malformed frame before the handshake is logged at notice, with the sender's address")
    func malformedFrameLogged() async throws {
        let (host, log, port) = try await listeningHost()
        let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
        try socket.write([0, 0, 0, 1, 0xEE])  // one byte of an unknown frame kind
        #expect(await socket.readToEnd().end == .closed)
        let line = try #require(await log.first { $0["code"] == MultipeerError.Code.malformedFrame.rawValue })
        #expect(line.level == .notice)
        #expect(line["peer"]?.hasPrefix("127.0.0.1:") == true, "peer is the remote address: \(line)")
        #expect(!line.message.isEmpty)
        #expect(log.lines(atLeast: .warning).isEmpty, "a peer's fault is not a warning: \(log.all)")
        await host.disconnect()
    }

    @Test("An oversized frame is logged at notice")
    func oversizedFrameLogged() async throws {
        let (host, log, port) = try await listeningHost()
        let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
        try socket.write([0x7F, 0xFF, 0xFF, 0xFF])  // announces a frame of 2 GiB
        #expect(await socket.readToEnd().end == .closed)
        let line = try #require(await log.first { $0["code"] == MultipeerError.Code.frameTooLarge.rawValue })
        #expect(line.level == .notice)
        #expect(line["peer"]?.hasPrefix("127.0.0.1:") == true)
        await host.disconnect()
    }

    @Test("A connected peer that sends a malformed frame is logged at notice under its name")
    func connectedPeerMalformedFrameLogged() async throws {
        let (host, log, port) = try await listeningHost()
        let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
        let mallory = peer("mallory")
        try socket.write(FrameCodec.encode(.hello(.init(peer: mallory, invitationTimeoutMilliseconds: 5000, codeCommitment: SampleFrames.codeCommitment, context: Data()))).bytes)
        #expect(await eventually { host.connectedPeers == [mallory] })
        try socket.write([0, 0, 0, 1, 0xEE])
        let line = try #require(await log.first { $0.level == .notice && $0["code"] == MultipeerError.Code.malformedFrame.rawValue })
        #expect(line["peer"] == "mallory")
        #expect(await log.first { $0.level == .debug && $0["peer"] == "mallory" && $0.message.contains("disconnected") } != nil)
        await host.disconnect()
    }
}
