import Foundation
@testable import Rooms
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Unique player names", .timeLimit(.minutes(2)))
struct PlayerRosterTests {
    let throttle = Throttle(rate: 20, burst: 5)

    func roster() -> PlayerRoster {
        PlayerRoster(reserving: PlayerRef(id: UUID(), name: "alice"))
    }

    @Test("Duplicate names get a number; case does not make a name different; the host's name is taken")
    func duplicates() {
        var roster = roster()
        let names = ["bob", "bob", "Bob", "carol", "alice", "bob (2)"].map { name in
            roster.admit(peer(name), moveThrottle: throttle, chatThrottle: throttle).player.name
        }
        #expect(names == ["bob", "bob (2)", "Bob (3)", "carol", "alice (2)", "bob (2) (2)"])
        #expect(roster.count == 6)
    }

    @Test("Lookalike names are made unique: other scripts, fullwidth forms, digits for letters; the host's name too")
    func lookalikes() {
        var roster = roster()
        let names = ["bob", "\u{0430}lice", "b0b", "ＢＯＢ", "carol", "\u{0441}arol", "rnallory", "mallory"].map { name in
            roster.admit(peer(name), moveThrottle: throttle, chatThrottle: throttle).player.name
        }
        #expect(names == ["bob", "\u{0430}lice (2)", "b0b (2)", "ＢＯＢ (3)", "carol", "\u{0441}arol (2)", "rnallory", "mallory (2)"])
    }

    @Test("A peer admitted twice keeps its entry and name")
    func sameIdentity() {
        var roster = roster()
        let bob = peer("bob")
        let first = roster.admit(bob, moveThrottle: throttle, chatThrottle: throttle)
        #expect(first.player == PlayerRef(id: bob.identity, name: "bob"))
        #expect(first.isNew)
        let again = roster.admit(bob, moveThrottle: throttle, chatThrottle: throttle)
        #expect(again.isNew == false)
        #expect(roster.count == 1)
    }

    @Test("A freed name can be taken again")
    func freed() {
        var roster = roster()
        let first = peer("bob")
        _ = roster.admit(first, moveThrottle: throttle, chatThrottle: throttle)
        #expect(roster.remove(first.identity)?.player.name == "bob")
        #expect(roster.admit(peer("bob"), moveThrottle: throttle, chatThrottle: throttle).player.name == "bob")
    }

    @Test("Numbered names of long display names still fit in 63 bytes")
    func longNames() {
        let long = String(repeating: "é", count: 31)  // 62 bytes
        #expect(PlayerRoster.numbered(long, 2).utf8.count <= PeerID.maximumDisplayNameBytes)
        #expect(PlayerRoster.numbered(long, 2).hasSuffix(" (2)"))
        var roster = roster()
        _ = roster.admit(peer(long), moveThrottle: throttle, chatThrottle: throttle)
        let second = roster.admit(peer(long), moveThrottle: throttle, chatThrottle: throttle).player.name
        #expect(throws: Never.self) { try PeerID.validate(displayName: second) }
    }

    @Test("Renaming makes the new name unique, frees the old one and refuses bad names")
    func rename() throws {
        var roster = roster()
        let bob = peer("bob")
        let carol = peer("carol")
        _ = roster.admit(bob, moveThrottle: throttle, chatThrottle: throttle)
        _ = roster.admit(carol, moveThrottle: throttle, chatThrottle: throttle)
        let change = try roster.rename(carol.identity, to: "BOB")
        #expect(change?.previous == "carol")
        #expect(change?.player.name == "BOB (2)")
        #expect(roster.admit(peer("carol"), moveThrottle: throttle, chatThrottle: throttle).player.name == "carol")
        #expect(try roster.rename(bob.identity, to: "bob") == nil, "the same name is no change")
        #expect(throws: GameError.self) { try roster.rename(bob.identity, to: "evil\u{1B}[2J") }
        #expect(throws: GameError.self) { try roster.rename(bob.identity, to: "") }
    }
}
