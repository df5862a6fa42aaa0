import Foundation
@testable import GuessnumApp
import Multipeer
import Testing

/// The list `guessnum send` picks a receiver from: numbers that stay, a receiver that went
/// marked and not picked, one that comes back said once, repeats silent.
@Suite("The list of receivers", .timeLimit(.minutes(1)))
struct ReceiverListTests {
    func receiver(_ name: String, port: Int = 4000) throws -> DiscoveredPeer {
        DiscoveredPeer(peer: try PeerID(displayName: name), endpoints: [try Endpoint(host: "10.0.0.2", port: port)], info: DiscoveryInfo())
    }

    @Test("A receiver that goes is said gone once, keeps its number and is not picked; one that comes back is said back under it")
    func goneAndBack() throws {
        let list = ReceiverList()
        let rita = try receiver("rita")
        let rosa = try receiver("rosa", port: 4001)
        #expect(list.apply(.found(rita)) == "1) rita")
        #expect(list.apply(.found(rosa)) == "2) rosa")
        #expect(list.apply(.updated(rita)) == nil, "news of a listed receiver changes no line")
        #expect(list.apply(.lost(rita.peer)) == "1) rita is gone")
        #expect(list.apply(.lost(rita.peer)) == nil, "gone twice is said once")
        #expect(list.pick(1) == .refused("rita (1) is gone: it stopped receiving, or its machine left the network. Pick another, or wait for it to be back."))
        #expect(list.pick(2) == .receiver(rosa))
        #expect(list.pick(3) == .refused("There is no receiver 3 in the list."))
        let moved = DiscoveredPeer(peer: rita.peer, endpoints: [try Endpoint(host: "10.0.0.2", port: 4100)], info: DiscoveryInfo())
        #expect(list.apply(.found(moved)) == "1) rita is back")
        #expect(list.pick(1) == .receiver(moved), "at the address it announces now")
    }
}
