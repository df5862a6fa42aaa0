import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Who this program plays as", .timeLimit(.minutes(1)))
struct LocalPlayerTests {
    let environment = ["XDG_CONFIG_HOME": Scratch.path("guessnum-local").path]

    @Test("The name is --name, else USER, else LOGNAME, else the system's login name")
    func names() throws {
        #expect(try LocalPlayer(name: "zoe", role: .guest, environment: environment.merging(["USER": "yann"]) { $1 }, loginName: "xavier").peer.displayName == "zoe")
        #expect(try LocalPlayer(name: nil, role: .guest, environment: environment.merging(["USER": "yann", "LOGNAME": "wim"]) { $1 }, loginName: "xavier").peer.displayName == "yann")
        #expect(try LocalPlayer(name: nil, role: .guest, environment: environment.merging(["LOGNAME": "wim"]) { $1 }, loginName: "xavier").peer.displayName == "wim")
        let system = try LocalPlayer(name: nil, role: .guest, environment: environment, loginName: "xavier")
        #expect(system.peer.displayName == "xavier")
        #expect(system.notice == nil)
    }

    @Test("Without any login name the random name is announced, with how to choose one")
    func randomNameIsAnnounced() throws {
        let player = try LocalPlayer(name: nil, role: .host, environment: environment, loginName: nil)
        let notice = try #require(player.notice)
        #expect(notice.contains("Your login name could not be found, so you play as \(player.peer.displayName); choose a name with --name."))
    }

    /// A player of `role` in the first identity slot. Another test of this process may be
    /// starting a program at that moment, and a child between fork and exec holds a copy of every
    /// open descriptor, the slot's lock included, for that instant: a claim that landed in
    /// another slot is let go and made again (for at most 30 s).
    func firstSlotPlayer(_ role: LocalPlayer.Role) async throws -> LocalPlayer {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let player = try LocalPlayer(name: "zoe", role: role, environment: environment, loginName: nil)
            if player.claim?.slot == 1 || player.claim == nil || ContinuousClock.now > deadline { return player }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("The peer's identity is its key's; an earlier release's UUID is replaced with a sentence; a damaged key stops a host but not a guest")
    func identityKeys() async throws {
        // Each player is let go before the next claims, so that each claims the first slot.
        do {
            let player = try await firstSlotPlayer(.guest)
            #expect(player.peer.identity == player.key.fingerprint.identity)
            let first = player.key.fingerprint
            _ = consume player
            #expect(try await firstSlotPlayer(.guest).key.fingerprint == first)
        }
        let directory = URL(fileURLWithPath: try #require(environment["XDG_CONFIG_HOME"])).appendingPathComponent("guessnum")
        try Data((UUID().uuidString + "\n").utf8).write(to: directory.appendingPathComponent("peer-identity-host"))
        do {
            let migrated = try await firstSlotPlayer(.host)
            #expect(migrated.notice?.contains("Your identity is now a key") == true, "\(migrated.notice ?? "")")
        }
        do {
            let again = try await firstSlotPlayer(.host)
            #expect(again.notice == nil)
        }

        try Data("-----BEGIN PRIVATE KEY-----\nMIGHAg\n".utf8).write(to: directory.appendingPathComponent("peer-identity-host"))
        #expect(throws: MultipeerError.self) { try LocalPlayer(name: "zoe", role: .host, environment: environment, loginName: nil) }
        try Data("-----BEGIN PRIVATE KEY-----\nMIGHAg\n".utf8).write(to: directory.appendingPathComponent("peer-identity-guest"))
        let guest = try LocalPlayer(name: "zoe", role: .guest, environment: environment, loginName: nil)
        #expect(guest.claim == nil && guest.notice?.contains("damaged") == true)
    }

    @Test("Two hosts of one account at once: the second plays under its own key, which the first's endorses; the first needs no endorsement")
    func secondHostIsEndorsed() throws {
        // A directory of its own: no other test claims (or forks while holding) these slots.
        let own = ["XDG_CONFIG_HOME": Scratch.path("guessnum-endorsed").path]
        let first = try LocalPlayer(name: "zoe", role: .host, environment: own, loginName: nil)
        let second = try LocalPlayer(name: "zoe", role: .host, environment: own, loginName: nil)
        #expect(first.claim?.slot == 1 && second.claim?.slot == 2)
        #expect(first.endorsement == nil)
        #expect(second.peer.identity != first.peer.identity)
        let endorsement = try #require(second.endorsement)
        #expect(endorsement.owner(ifEndorsing: second.key.fingerprint) == first.key.fingerprint)
        // A guest of the same account is another role: its key is not the host's.
        let guest = try LocalPlayer(name: "zoe", role: .guest, environment: own, loginName: nil)
        #expect(guest.endorsement == nil)
        withExtendedLifetime((first, second, guest)) {}
    }
}
