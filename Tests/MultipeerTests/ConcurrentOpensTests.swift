import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

/// Streams and resources opened at once from many tasks (a folder sends several files at a time):
/// their ids must reach the peer in the order they were taken, or the peer closes the link for a
/// stream "opened again".
@Suite("Streams opened at once", .timeLimit(.minutes(1)))
struct ConcurrentOpensTests {
    @Test("Rounds of 48 streams opened at once from as many tasks all reach the peer, in order: no violation, the link stays")
    func opensInIdOrder() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let opened = Atomic<Int>(0)
            let reading = peers.host.events.observe(.streamOpened) { stream in
                opened.add(1, ordering: .relaxed)
                stream.cancel()  // read no further: its data is ignored
            }
            defer { reading.cancel() }
            let rounds = 20
            let perRound = 48
            for _ in 0..<rounds {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<perRound {
                        group.addTask {
                            let stream = try await peers.guest.openStream(named: "s\(index)", to: peers.host.localPeer)
                            stream.cancel()
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(peers.guest.connectedPeers.contains(peers.host.localPeer), "the link closed: \(peers.hostLog.all.suffix(3))")
            }
            #expect(await eventually { opened.load(ordering: .relaxed) == rounds * perRound }, "\(opened.load(ordering: .relaxed)) opened")
            #expect(!peers.hostLog.all.contains { $0.message.contains("broke the protocol") }, "\(peers.hostLog.all.suffix(3))")
        }
    }
}
