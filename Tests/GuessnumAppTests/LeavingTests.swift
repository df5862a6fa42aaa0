@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Leaving and ending, and what everyone reads when it happens.
@Suite("Leaving and ending a game", .timeLimit(.minutes(1)))
struct LeavingTests {
    @Test("A host that closes the link with a sentence (a flood cut off) is quoted as one sentence")
    func closedWithSentence() throws {
        let reason = GameError.messageFlood(perSecond: 50).message
        let change = PeerStateChange(peer: try PeerID(displayName: "alice"), state: .notConnected, reason: .goodbye(reason))
        let (ending, sentence) = SeatEnding.of(change, host: "alice")
        #expect(ending == .lost)
        #expect(sentence == "The host closed the link: You sent far more messages than the host accepts (at most 50 a second), so it disconnected you.")
    }

    @Test("At a terminal, /quit and Ctrl-D ask before ending a game with players in; a yes ends it with final scores for everyone")
    func hostConfirmsTheEnd() async throws {
        let game = try await AppHarness(hostInteractive: true)
        let bob = try game.player("bob", gameName: "alice", timeout: .seconds(30))
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("42")
        #expect(await game.hostConsole.line(containing: "bob won round 1") != nil)

        game.hostInbox.post(.typed("/quit"))
        #expect(await game.hostConsole.line(containing: "1 player is in the game. End it for everyone? [y/n]") != nil, "\(game.hostConsole.transcript)")
        game.hostInbox.post(.typed("n"))
        #expect(await game.hostConsole.line(containing: "The game goes on.") != nil)
        game.hostInbox.post(.inputEnded)
        #expect(await eventually { game.hostConsole.count("End it for everyone?") == 2 }, "Ctrl-D asks too")
        #expect(game.hostConsole.resumeCount == 1, "input resumes after Ctrl-D so the host can answer")
        game.hostInbox.post(.typed("y"))
        #expect(await game.hostRun.value == nil)
        #expect(await game.hostConsole.line(containing: "The game is over. Final scores:") != nil)
        #expect(await game.hostConsole.line(containing: "1. bob: 1 win, 1 guess, best round 1 guess") != nil, "\(game.hostConsole.transcript)")
        #expect(await bob.console.line(containing: "alice ended the game.") != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "1. bob: 1 win, 1 guess") != nil, "the player sees the final scores too: \(bob.console.transcript)")
        #expect(await bob.stop() == nil)
    }

    @Test("A host with no players, or not at a terminal, ends at once")
    func hostEndsAtOnce() async throws {
        let empty = try await AppHarness(hostInteractive: true)
        empty.hostInbox.post(.typed("/quit"))
        #expect(await empty.hostRun.value == nil)
        #expect(empty.hostConsole.count("End it for everyone?") == 0)

        let scripted = try await AppHarness()
        let bob = try scripted.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        scripted.hostInbox.post(.typed("/quit"))
        #expect(await scripted.hostRun.value == nil)
        #expect(await bob.console.line(containing: "alice ended the game.") != nil, "\(bob.console.transcript)")
        _ = await bob.stop()
    }

    @Test("Ctrl-C on an empty line says how to leave; a second one within 2 s leaves; one that cleared a line does neither")
    func controlC() async throws {
        let game = try await AppHarness()
        game.hostInbox.post(.interrupted(clearedText: true))
        game.hostInbox.post(.interrupted(clearedText: false))
        #expect(await game.hostConsole.line(containing: "To end the game, press Ctrl-C again, press Ctrl-D or type /quit.") != nil)
        #expect(game.hostConsole.count("press Ctrl-C again") == 1, "a Ctrl-C that cleared a line gives no hint")

        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.inbox.post(.interrupted(clearedText: false))
        #expect(await bob.console.line(containing: "To leave, press Ctrl-C again, press Ctrl-D or type /quit") != nil)
        bob.inbox.post(.interrupted(clearedText: false))
        #expect(await bob.run.value == nil, "the second Ctrl-C leaves")
        #expect(await game.hostConsole.line(containing: "bob left (0 playing).") != nil)

        // Two more, together: the first one above may be more than 2 s ago on a loaded machine.
        game.hostInbox.post(.interrupted(clearedText: false))
        game.hostInbox.post(.interrupted(clearedText: false))
        #expect(await game.hostRun.value == nil, "a second Ctrl-C within 2 s ends the game")
    }

    @Test("A removed player is turned away for a while, with a sentence; /unkick lets them back; the list shows the right count meanwhile")
    func removedPlayer() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob")
        let carol = try game.player("carol")
        // Picked once listed: typed before discovery has found the game, "1" is no game yet.
        for player in [bob, carol] {
            #expect(await player.console.line(containing: "1) alice") != nil, "\(player.console.transcript)")
            player.type("1")
        }
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil)
        game.hostInbox.post(.typed("/kick bob"))
        #expect(await bob.console.line(containing: "You were removed from the game by the host.") != nil, "\(bob.console.transcript)")
        #expect(await carol.console.line(containing: "bob was removed by the host (1 playing).") != nil, "\(carol.console.transcript)")
        #expect(await eventually(within: .seconds(30)) { bob.console.lines.last?.contains("1) alice — numbers 1–100, 1/10 players") == true },
                "back in the list, with the count after leaving: \(bob.console.transcript)")

        bob.type("1")
        #expect(await bob.console.line(containing: "alice turned you away: the host removed you from this game a short while ago; you may try again in 10 minutes.") != nil, "\(bob.console.transcript)")
        game.hostInbox.post(.typed("/unkick carol"))
        #expect(await game.hostConsole.line(containing: "Nobody called “carol” was removed from this game.") != nil)
        game.hostInbox.post(.typed("/unkick bob"))
        let lifted = await game.hostConsole.line(containing: " may join again, from any address.")
        #expect(lifted?.hasPrefix("bob (client") == true && lifted?.contains(".memory, key ") == true, "says whom, with the address: \(game.hostConsole.transcript)")
        bob.type("1")
        #expect(await eventually { bob.console.count("Welcome, bob!") == 2 }, "\(bob.console.transcript)")
        _ = await bob.stop()
        _ = await carol.stop()
        _ = await game.stopHost()
    }

    @Test("A kick holds against the person's second identity under their name; after /unkick, /players tells the bobs apart")
    func kickHoldsAgainstASecondIdentity() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        game.hostInbox.post(.typed("/kick bob"))
        #expect(await game.hostConsole.line(containing: "bob was removed by the host (0 playing).") != nil, "\(game.hostConsole.transcript)")

        // A second terminal: a new identity, the same name (another address in memory: the name alone bars it).
        let second = try game.player("bob", gameName: "alice")
        #expect(await second.console.line(containing: "alice turned you away: the host removed you from this game a short while ago; you may try again in 10 minutes.") != nil,
                "\(second.console.transcript)")
        #expect(game.room.players.isEmpty)
        _ = await second.stop()

        game.hostInbox.post(.typed("/unkick bob"))
        #expect(await game.hostConsole.line(containing: " may join again, from any address.") != nil)
        let third = try game.player("bob", gameName: "alice")
        #expect(await third.console.line(containing: "Welcome, bob!") != nil, "\(third.console.transcript)")
        game.hostInbox.post(.typed("/players"))
        var rows: [String] = []
        #expect(await eventually {
            rows = game.hostConsole.lines.filter { $0.hasPrefix("bob (") && $0.contains("key ") && ($0.contains(" gone ") || $0.contains(" connected ")) }
            return rows.contains { $0.contains(" connected ") }
        }, "rows called bob, each with its key (and address when known): \(game.hostConsole.transcript)")
        #expect(rows.count >= 2 && Set(rows.map { $0.prefix { $0 != ")" } }).count == rows.count, "told apart: \(rows)")
        #expect(rows.contains { $0.contains(" gone ") } && rows.contains { $0.contains(" connected ") }, "\(rows)")
        _ = await bob.stop()
        _ = await third.stop()
        _ = await game.stopHost()
    }
}
