import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// What a kick removes: the player, and for the removal period anyone new under a name that looks
/// like theirs or from their network; never a player already seated.
@Suite("The host's removals as a value", .timeLimit(.minutes(1)))
struct RemovalTests {
    let alice = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func table() throws -> GuessTable {
        let configuration = GuessHosting(secretSource: .fixed(42))
        return try GuessTable(configuration: configuration, host: alice, secret: 42)
    }

    @Test("A removed player's second identity is turned away by its lookalike name or by its network; others are not")
    func secondIdentity() throws {
        var table = try table()
        let bob = peer("bob")
        let carol = peer("carol")
        _ = table.join(bob)
        _ = table.join(carol)
        let addresses = [bob.identity: "10.0.0.2", carol.identity: "10.0.0.2"]
        let (removed, removal) = try #require(table.remove(named: "bob", until: now + .seconds(600)) { addresses[$0] })
        #expect(removed.player.id == bob.identity)
        #expect(removal.address == "10.0.0.2")
        _ = table.leave(bob.identity)

        #expect(table.removal(barring: bob.identity, named: "bob", from: "10.0.0.9", at: now)?.id == bob.identity, "the kicked identity")
        for name in ["bob", "BOB", "bоb"] {  // the last with a Cyrillic "о"
            #expect(table.removal(barring: UUID(), named: name, from: "10.0.0.9", at: now)?.id == bob.identity, "a new identity called \(name)")
        }
        #expect(table.removal(barring: UUID(), named: "robert", from: "10.0.0.2", at: now)?.id == bob.identity, "a new identity from the same address")
        #expect(table.removal(barring: UUID(), named: "dave", from: "10.0.0.9", at: now) == nil, "someone else elsewhere")
        #expect(table.removal(barring: carol.identity, named: "carol", from: "10.0.0.2", at: now) == nil, "a player seated from that address stays")
        #expect(table.removal(barring: UUID(), named: "bob", from: nil, at: now + .seconds(601)) == nil, "the removal ends with its period")
    }

    @Test("An IPv6 removal bars the whole /64, as the per-address limit counts it")
    func ipv6Network() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        _ = table.remove(named: "bob", until: now + .seconds(600)) { _ in "2001:db8:0:1::5" }
        _ = table.leave(bob.identity)
        #expect(table.removal(barring: UUID(), named: "robert", from: "2001:db8:0:1::77", at: now) != nil)
        #expect(table.removal(barring: UUID(), named: "robert", from: "2001:db8:0:2::5", at: now) == nil)
    }

    @Test("A kick by a lookalike name finds the one player it names; lifting a name lifts every removal under it, saying whom")
    func namesAndLifting() throws {
        var table = try table()
        let bob = peer("bob")
        let carol = peer("carol")
        _ = table.join(bob)
        _ = table.join(carol)
        #expect(table.player(named: "Bob")?.player.id == bob.identity)
        _ = table.remove(named: "Bob", until: now + .seconds(600)) { _ in "10.0.0.2" }
        _ = table.leave(bob.identity)
        // bob comes back from elsewhere under another identity after the host let him in by hand
        // (say /unkick lifted nothing yet, but an invitation slipped in): a second removal of "bob".
        let bob2 = peer("bob")
        _ = table.join(bob2)
        _ = table.remove(named: "bob", until: now + .seconds(700)) { _ in "10.0.0.3" }
        _ = table.leave(bob2.identity)

        #expect(table.readmit(named: "carol").isEmpty)
        let lifted = table.readmit(named: "BOB")
        #expect(lifted.map(\.id) == [bob.identity, bob2.identity], "both, oldest first")
        #expect(lifted.map(\.address) == ["10.0.0.2", "10.0.0.3"])
        #expect(table.removal(barring: UUID(), named: "bob", from: "10.0.0.2", at: now) == nil, "nothing bars bob or the addresses now")
        #expect(table.removal(barring: bob.identity, named: "bob", from: nil, at: now) == nil)
    }
}
