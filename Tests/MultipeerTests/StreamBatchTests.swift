import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A stream's batches follow the reader's window: a quarter of it, 64 KiB at the window
/// sessions start with, up to 256 KiB once it is 1 MiB or more; the link still holds two
/// batches at most (half that window), and a message still goes beside them.
@Suite("A stream's batches follow its window", .timeLimit(.minutes(1)))
struct StreamBatchTests {
    @Test("At a 1 MiB window, with the link writing nothing below, a 3 MB write hands it two batches of 16 chunks and stops; a message still goes; the rest follows, whole")
    func largerBatchesAtALargerWindow() async throws {
        try await withSessions { scope in
            var configuration = SessionConfiguration.notAboutTimeouts
            configuration.streamWindow = 1024 * 1024
            configuration.maximumStreamWindow = 1024 * 1024
            let network = InMemoryNetwork()
            let tap = HeldWritesTap(network)
            let host = scope.session(localPeer: peer("alice"), transport: network, configuration: configuration)
            let guest = scope.session(localPeer: peer("bob"), transport: tap, configuration: configuration)
            let scenarios = StreamScenarios(host: host, guest: guest)
            let port = try await host.startListening()
            #expect(try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(host.localPeer))
            #expect(await eventually { host.connectedPeers == [guest.localPeer] })
            let writer = try await guest.openStream(named: "bulk", to: host.localPeer)
            let incoming = try await StreamScenarios.incoming(scenarios.hostStreams, named: "bulk")
            let data = StreamScenarios.pattern(3_000_000, seed: 7)
            let reading = Task { try await StreamScenarios.readAll(incoming) }
            let writing = Task { try await writer.write(data) }
            let chunk = guest.configuration.streamChunkLength
            let twoBatches = 2 * 16 * chunk
            #expect(await eventually { tap.handed.value >= twoBatches })
            try guest.send(Chat(text: "beside the stream"), to: [host.localPeer])
            #expect(await scenarios.hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "beside the stream") } != nil)
            #expect(tap.handed.value == twoBatches, "not two batches of 16 chunks handed to a link that wrote none of them")
            #expect(tap.heldCount == 2)
            while !(await eventually(within: .milliseconds(20)) { tap.handed.value == data.count && tap.heldCount == 0 }) {
                tap.writeOne()
            }
            try await writing.value
            writer.finish()
            #expect(try await reading.value == data)
        }
    }
}
