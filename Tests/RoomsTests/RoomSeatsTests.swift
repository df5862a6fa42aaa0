import Foundation
import Multipeer
@testable import Rooms
import Testing

@Suite("Who sits in a room", .timeLimit(.minutes(1)))
struct RoomSeatsTests {
    let host = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func seats(maximumPlayers: Int = 10) -> RoomSeats {
        var configuration = RoomConfiguration()
        configuration.maximumPlayers = maximumPlayers
        return RoomSeats(configuration: configuration, host: host, moveThrottle: Throttle(rate: 20, burst: 5))
    }

    func peer(_ name: String) throws -> PeerID { try PeerID(displayName: name) }

    @Test("Newcomers get unique names; a full room and a name that looks like chat are turned away")
    func newcomers() throws {
        var seats = seats(maximumPlayers: 2)
        guard case .newcomer(let bob) = seats.seat(try peer("bob")) else { Issue.record("bob not seated"); return }
        guard case .newcomer(let other) = seats.seat(try peer("Alice")) else { Issue.record("the second not seated"); return }
        #expect(bob.name == "bob")
        #expect(other.name == "Alice (2)", "the host's name is reserved, whatever its case")
        guard case .full = seats.seat(try peer("carol")) else { Issue.record("a full room seated carol"); return }
        var open = self.seats()
        guard case .badName(let error) = open.seat(try peer("[host] bob")) else { Issue.record("a chat-like name was seated"); return }
        #expect(error.code == .invalidName)
    }

    @Test("A dropped player keeps the seat until it expires, comes back to it, and a kick is said once")
    func heldSeats() throws {
        var seats = seats()
        let bob = try peer("bob")
        _ = seats.seat(bob)
        seats.joined(bob.identity, at: 1)
        #expect(seats.drop(bob.identity, at: now)?.name == "bob")
        #expect(seats.drop(bob.identity, at: now) == nil, "away once")
        #expect(seats.expired(before: now).isEmpty)
        #expect(seats.expired(before: now + .seconds(1)) == [bob.identity])
        guard case .returned(let back) = seats.seat(bob, resumeAfter: 5) else { Issue.record("bob did not get his seat back"); return }
        #expect(back.name == "bob")
        guard case .alreadySeated = seats.seat(bob) else { Issue.record("seated twice"); return }
        _ = seats.remove(named: "BOB", until: now + .seconds(600)) { _ in "10.0.0.9" }
        #expect(seats.unseat(bob.identity)?.removedByHost == true)
        #expect(seats.removal(barring: UUID(), named: "bob", from: nil, at: now)?.id == bob.identity, "the name is barred")
        #expect(seats.unseat(bob.identity) == nil)
    }

    @Test("A replay never reaches back before the player's own join; a welcome is owed once")
    func replaysStartAtTheJoin() throws {
        var seats = seats()
        let bob = try peer("bob")
        _ = seats.seat(bob)
        seats.joined(bob.identity, at: 40)
        #expect(seats.takeWelcomes().map(\.player.name) == ["bob"])
        #expect(seats.takeWelcomes().isEmpty)
        _ = seats.drop(bob.identity, at: now)
        _ = seats.seat(bob, resumeAfter: 12)
        let replays = seats.takeReplays()
        #expect(replays.map(\.asked) == [12])
        #expect(replays.map(\.after) == [40])
        #expect(seats.takeReplays().isEmpty)
    }

    @Test("A full room turns newcomers away but not a player whose seat is held; a removed player is told for how long")
    func admission() throws {
        var seats = seats(maximumPlayers: 1)
        let bob = try peer("bob"), carol = try peer("carol")
        _ = seats.seat(bob)
        seats.note(address: "10.0.0.9", of: bob.identity)
        #expect(seats.admission(of: carol, from: "10.0.0.2", at: now) == .decline(reason: "the game is full"))
        _ = seats.drop(bob.identity, at: now)
        #expect(seats.admission(of: bob, from: "10.0.0.9", at: now) == .accept)
        #expect(seats.heldSeats(from: "10.0.0.9", besides: carol.identity) == 1)
        #expect(seats.heldSeats(from: "10.0.0.9", besides: bob.identity) == 0)
        let addresses = seats.addresses
        _ = seats.remove(named: "bob", until: now + .seconds(90)) { addresses[$0] }
        #expect(seats.address(of: bob.identity) == "10.0.0.9")
        #expect(seats.admission(of: bob, from: nil, at: now) == .decline(reason: RoomSeats.removedReason(remaining: .seconds(90))))
        #expect(RoomSeats.removedReason(remaining: .seconds(90)).hasSuffix("you may try again in 2 minutes"))
    }
}
