import Foundation
import GuessnumApp
import Multipeer
import MultipeerTesting
import MultipeerTestSupport
import Testing

/// The list of games as a player sees it in `guessnum join`: numbers that hold while it is on
/// screen, one line per change, and marks that say what was measured last.
@Suite("The list of games on screen", .timeLimit(.minutes(1)))
struct GameListScreenTests {
    @Test("A game that goes away keeps its number, shown as no longer listed (not as gone: a hidden game still runs); the next game's number still joins that game; the whole list is printed once")
    func numbersHold() async throws {
        let alice = try await AppHarness()
        let bob = try alice.player("bob")
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100, 0/10 players, round 1") != nil, "\(bob.console.transcript)")
        let carol = try await AppHarness(network: alice.network, hostName: "carol")
        #expect(await bob.console.line(containing: "2) carol — numbers 1–100, 0/10 players, round 1") != nil, "\(bob.console.transcript)")

        alice.hostInbox.post(.typed("/visible off"))
        #expect(await bob.console.line(containing: "1) alice's game is no longer listed") != nil, "\(bob.console.transcript)")
        bob.type("1")
        #expect(await bob.console.line(containing: "alice's game (1) is no longer listed (it ended, or its host hid it); pick another, or press Enter to see the list again.") != nil)
        bob.type("2")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        #expect(bob.console.count("Joining carol") == 1 && bob.console.count("Joining alice") == 0, "\(bob.console.transcript)")
        #expect(bob.console.count("Searching for games") == 1, "changes are lines of their own, not the list again: \(bob.console.transcript)")
        // (A line for carol's count may follow while bob joins: the list is shown until he sits down.)
        #expect(bob.console.count("1) alice — numbers 1–100, 0/10 players, round 1") == 1
                && bob.console.count("2) carol — numbers 1–100, 0/10 players, round 1") == 1, "each game's line printed once: \(bob.console.transcript)")

        bob.type("/leave")
        #expect(await bob.console.line(containing: "Searching for games… 1 found") != nil, "back in the list, printed whole: \(bob.console.transcript)")
        #expect(await bob.console.line(containing: "  1) carol — ") != nil, "numbered anew without the gone game: \(bob.console.transcript)")
        #expect(await bob.stop() == nil)
        #expect(await carol.stopHost() == nil)
        #expect(await alice.stopHost() == nil)
    }

    @Test("Enter prints the whole list again, numbered anew")
    func enterShowsTheList() async throws {
        let alice = try await AppHarness()
        let bob = try alice.player("bob")
        #expect(await bob.console.line(containing: "1) alice — ") != nil, "\(bob.console.transcript)")
        alice.hostInbox.post(.typed("/visible off"))
        #expect(await bob.console.line(containing: "1) alice's game is no longer listed") != nil, "\(bob.console.transcript)")
        bob.type("")
        #expect(await bob.console.line(containing: "Searching for games… 0 found") != nil, "\(bob.console.transcript)")
        #expect(await bob.stop() == nil)
        #expect(await alice.stopHost() == nil)
    }

    @Test("A game whose host did not answer is marked “not answering”, and the mark goes once the host answers a check, the list still open")
    func silentMarkClears() async throws {
        let alice = try await AppHarness()
        let laptop = alice.network.machine()
        let bob = try alice.player("bob", machine: laptop)
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100, 0/10 players, round 1") != nil, "\(bob.console.transcript)")
        laptop.unplug()
        bob.type("1")
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100, 0/10 players, round 1, not answering") != nil, "\(bob.console.transcript)")
        laptop.plugIn()
        // Checked again in the background: the game's line without the mark.
        #expect(await eventually { bob.console.lines.last == "  1) alice — numbers 1–100, 0/10 players, round 1" }, "\(bob.console.transcript)")
        #expect(alice.room.playerCount == 0, "a check is not a join")
        bob.type("1")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        #expect(await bob.stop() == nil)
        #expect(await alice.stopHost() == nil)
    }

    @Test("With --json every line of the list is a JSON object, each game one with its number, name and facts")
    func jsonList() async throws {
        let alice = try await AppHarness()
        let bob = try alice.player("bob", json: true)
        let line = try #require(await bob.console.line(containing: #""event":"game""#), "\(bob.console.transcript)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let game = try #require(object["data"] as? [String: Any])
        #expect(game["number"] as? Int == 1 && game["name"] as? String == "alice" && game["players"] as? Int == 0
                && game["maximumPlayers"] as? Int == 10 && game["round"] as? Int == 1 && game["private"] as? Bool == false, "\(line)")
        #expect(bob.console.count(#"{"event":"message","text":"Searching for games… "#) == 1, "the header too: \(bob.console.transcript)")
        #expect(bob.console.count("1) alice") == 0, "no text listing beside the objects: \(bob.console.transcript)")
        #expect(await bob.stop() == nil)
        #expect(await alice.stopHost() == nil)
    }

    @Test("When discovery is unavailable the player is told once, with the join code as a way in")
    func unavailableOnce() async throws {
        let alice = try await AppHarness()
        alice.network.discovery.isAvailable = false
        let bob = try alice.player("bob")
        #expect(await bob.console.line(containing: "Type the number of a game to join it") != nil, "\(bob.console.transcript)")
        let carol = try alice.player("carol", gameName: "alice", timeout: .milliseconds(500))
        #expect(await carol.run.value?.exitCode == 3)
        for player in [bob, carol] {
            #expect(player.console.count("Games nearby can't be found") == 1, "\(player.console.transcript)")
            #expect(player.console.count("you can still join a game by the join code or the address (HOST:PORT) its host printed") == 1)
        }
        #expect(await bob.stop() == nil)
        #expect(await alice.stopHost() == nil)
    }
}
