import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTesting
import Synchronization
import Testing

/// `guessnum send` in memory: what the sender reads when the receiver it picked is gone.
@Suite("The file drop's sender", .timeLimit(.minutes(1)))
struct DropSenderTests {
    final class Lines: DropOutput {
        let lines = Mutex<[String]>([])
        func line(_ text: String) { lines.withLock { $0.append(text) } }
        func progress(of name: String, _ text: String, fraction: Double) {}
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("A receiver picked from the list that is gone: the sentence names the receiver and `guessnum receive`, not an address typed or a host")
    func pickedReceiverGone() async throws {
        let network = InMemoryNetwork()
        let rita = try PeerID(displayName: "rita")
        // An announcement left behind by a receiver that stopped: nobody listens on its port.
        let stale = try await network.discovery.publish(
            Advertisement(serviceType: DropService.serviceType, peer: rita, port: 9, info: DiscoveryInfo())) { _ in }
        defer { Task { await stale.cancel() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("drop-\(UUID()).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = Lines()
        let picked = Mutex(false)
        let sender = DropSender(
            session: Session(localPeer: try PeerID(displayName: "sam"), transport: network), discovery: network.discovery, output: out,
            timeout: .seconds(5),
            pick: {
                // The first line typed picks rita once she is listed; then the input ends.
                guard !picked.withLock({ $0 }) else { return nil }
                while !out.all.contains("1) rita") { await Task.yield() }
                picked.withLock { $0 = true }
                return "1"
            })
        let code = await sender.run(file: file, named: nil, to: .pick)
        #expect(code == AppFailure.Code.runtime.exitCode)
        let said = "rita could not be reached at memory:9, where it was announced: rita may have stopped `guessnum receive` a moment ago; send again to pick from the receivers there now."
        #expect(out.all.contains(said), "\(out.all)")
        #expect(!out.all.contains { $0.contains("Check the address") || $0.contains("host") }, "\(out.all)")
    }
}
