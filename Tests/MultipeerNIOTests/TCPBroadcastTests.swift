import Foundation
import Multipeer
@testable import MultipeerNIO
import MultipeerTestSupport
import Testing

/// `TCPTransport.broadcast`: one shared copy, written out chunk by chunk from each event loop,
/// without ever reordering a connection's frames.
@Suite("TCP broadcast", .timeLimit(.minutes(2)))
struct TCPBroadcastTests {
    @Test("Broadcasts to more connections than a chunk, mixed with single sends, arrive complete and in order everywhere")
    func orderAcrossChunks() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, makeHandler: accepted.make) { listener async throws in
            let count = TCPTransport.broadcastChunk * 3 + 7  // several chunks on each event loop
            var clients: [RecordingHandler] = []
            var clientConnections: [any Connection] = []
            for _ in 0..<count {
                let client = RecordingHandler()
                clientConnections.append(try await transport.connect(
                    to: Endpoint(host: "127.0.0.1", port: listener.port), options: LinkOptions(), timeout: .seconds(30), handler: client))
                clients.append(client)
            }
            #expect(await eventually { accepted.all.count == count && accepted.all.allSatisfy { $0.connection != nil } })
            let servers = accepted.all.compactMap(\.connection)

            // Frame n goes to everyone: every third by one broadcast, the others by a send to each.
            let frames = (0..<30).map { SampleFrames.numbered($0, payloadBytes: 8 + $0 * 37) }
            await Task.detached {
                for (number, frame) in frames.enumerated() {
                    let encoded = FrameCodec.encode(frame)
                    if number % 3 == 0 {
                        transport.broadcast(encoded, to: servers)
                    } else {
                        for server in servers { server.send(encoded) }
                    }
                }
            }.value

            for client in clients { #expect(await client.waitForFrames(frames.count)) }
            let outOfOrder = clients.filter { $0.frames != frames }.count
            #expect(outOfOrder == 0, "\(outOfOrder) of \(count) connections saw the frames differently")
            for connection in clientConnections { connection.close() }
        }
    }

    @Test("Frames broadcast before close() are delivered, then the connection closes in order")
    func closeAfterBroadcast() async throws {
        try await LoopbackPair.with { pair async throws in
            let frames = (0..<5).map { SampleFrames.numbered($0) }
            for frame in frames { pair.transport.broadcast(FrameCodec.encode(frame), to: [pair.serverConnection]) }
            pair.serverConnection.close()
            #expect(await pair.client.waitForClose())
            #expect(pair.client.frames == frames)
            #expect(pair.client.closeError == .some(nil))
            #expect(pair.client.followedContract)
        }
    }
}
