@testable import GuessnumApp
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// What the host reads: /history across rounds, the final scores, who is turned away.
@Suite("The host's screen", .timeLimit(.minutes(1)))
struct HostScreenTests {
    @Test("A new round is announced: the list shows the round the game is at, and /new RANGE's range")
    func newRoundAnnounced() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("42")
        #expect(await game.hostConsole.line(containing: "Round 2 starts") != nil, "\(game.hostConsole.transcript)")
        let carol = try game.player("carol")
        #expect(await carol.console.line(containing: "1) alice — numbers 1–100, 1/10 players, round 2") != nil, "\(carol.console.transcript)")
        game.hostInbox.post(.typed("/new 1-500"))
        #expect(await game.hostConsole.line(containing: "Round 3 starts: guess a number from 1 to 500.") != nil, "\(game.hostConsole.transcript)")
        carol.type("")
        #expect(await carol.console.line(containing: "1) alice — numbers 1–500, 1/10 players, round 3") != nil, "\(carol.console.transcript)")
        _ = await bob.stop()
        _ = await carol.stop()
        _ = await game.stopHost()
    }

    @Test("/history keeps the last round visible, labelled with how it ended, until the new round has guesses of its own")
    func historyAcrossRounds() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        bob.type("10")
        #expect(await game.hostConsole.line(containing: "bob guessed 10: too low") != nil)
        bob.type("42")
        #expect(await game.hostConsole.line(containing: "Round 2 starts") != nil, "\(game.hostConsole.transcript)")

        game.hostInbox.post(.typed("/history"))
        #expect(await game.hostConsole.line(containing: "No guesses yet in round 2. Round 1 (bob won it; the secret was 42):") != nil, "\(game.hostConsole.transcript)")
        let lines = game.hostConsole.lines
        let header = try #require(lines.lastIndex { $0.hasPrefix("No guesses yet in round 2.") })
        #expect(Array(lines[(header + 1)...].prefix(2)) == ["bob guessed 10: too low", "bob guessed 42: correct"], "\(game.hostConsole.transcript)")

        bob.type("50")
        #expect(await game.hostConsole.line(containing: "bob guessed 50: too high") != nil)
        game.hostInbox.post(.typed("/history"))
        #expect(await eventually { game.hostConsole.count("bob guessed 50: too high") == 2 }, "the new round's own guesses once it has some: \(game.hostConsole.transcript)")
        #expect(game.hostConsole.count("No guesses yet in round 2.") == 1)
        _ = await bob.stop()
        _ = await game.stopHost()
    }

    @Test("Guests turned away for a wrong password show on the host's screen: one line per network, not one per guess")
    func wrongPasswordsShown() async throws {
        let game = try await AppHarness(password: try GamePassword("open sesame"))
        let machine = game.network.machine(address: "10.0.0.7")
        for name in ["dave", "erin", "frank"] {
            let guesser = try game.player(name, gameName: "alice", password: try GamePassword("guess"), machine: machine)
            #expect(await guesser.run.value == AppFailure("Could not join “alice”.", exitCode: 3), "\(guesser.console.transcript)")
        }
        #expect(await game.hostConsole.line(containing: "A guest from 10.0.0.7 was turned away: wrong password.") != nil, "\(game.hostConsole.transcript)")
        // From another network: told at once, after anything due from the first (posted in order).
        let other = try game.player("gina", gameName: "alice", password: try GamePassword("guess"), machine: game.network.machine(address: "10.0.0.8"))
        _ = await other.run.value
        #expect(await game.hostConsole.line(containing: "A guest from 10.0.0.8 was turned away: wrong password.") != nil, "\(game.hostConsole.transcript)")
        #expect(game.hostConsole.count("10.0.0.7") == 1, "the other two wait for the minute's summary: \(game.hostConsole.transcript)")
        _ = await game.stopHost()
    }

    @Test("The summary line counts the guests of the minute by reason")
    func refusalSummaryText() {
        let text = GameText(style: .plain, json: false, me: UUID())
        #expect(text.passwordRefusals(PasswordRefusals(network: "10.0.0.7", counts: [.wrong: 4, .tooMany: 1], isSummary: true))
                == "In the last minute 5 more guests from 10.0.0.7 were turned away: 4 with a wrong password, 1 after too many wrong passwords.")
        #expect(text.passwordRefusals(PasswordRefusals(network: "10.0.0.7", counts: [.tooMany: 1], isSummary: false))
                == "A guest from 10.0.0.7 was turned away: too many wrong passwords lately.")
    }

    @Test("A player renamed during the game is in the final scores under the new name, for the host and every player, those who joined after the rename too")
    func finalScoresAfterRename() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        let carol = try game.player("carol", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil, "\(carol.console.transcript)")
        bob.type("42")
        #expect(await game.hostConsole.line(containing: "Round 2 starts") != nil, "\(game.hostConsole.transcript)")
        bob.type("/name robert")
        #expect(await game.hostConsole.line(containing: "bob is now robert.") != nil, "\(game.hostConsole.transcript)")
        #expect(await carol.console.line(containing: "bob is now robert.") != nil, "\(carol.console.transcript)")
        carol.type("50")
        #expect(await carol.console.line(containing: "you guessed 50") != nil, "\(carol.console.transcript)")
        // dave's welcome comes after the rename: its scoreboard must have the new name.
        let dave = try game.player("dave", gameName: "alice")
        #expect(await dave.console.line(containing: "Welcome, dave!") != nil, "\(dave.console.transcript)")

        game.hostInbox.post(.typed("/quit"))
        #expect(await game.hostRun.value == nil)
        #expect(await game.hostConsole.line(containing: "1. robert: 1 win, 1 guess") != nil, "\(game.hostConsole.transcript)")
        for player in [bob, carol, dave] {
            #expect(await player.console.line(containing: "1. robert: 1 win, 1 guess") != nil, "\(player.console.transcript)")
            #expect(!player.console.lines.contains { $0.hasPrefix("1. bob") }, "\(player.console.transcript)")
            _ = await player.stop()
        }
    }

    @Test("The host's first lines claim no listed name; the name is told once the announcement is established, the renamed one when another game has it")
    func listedNameOnceEstablished() async throws {
        let network = InMemoryNetwork()
        let first = try await AppHarness(network: network)
        #expect(await first.hostConsole.line(containing: "The game is listed as “alice” in `guessnum join`.") != nil, "\(first.hostConsole.transcript)")
        let banner = try #require(first.hostConsole.lines.firstIndex { $0.hasPrefix("Hosting alice's game") })
        #expect(!first.hostConsole.lines[banner].contains("listed as"), "\(first.hostConsole.transcript)")
        #expect(first.hostConsole.lines.firstIndex { $0.contains("is listed as") }! > banner, "after the banner")

        let second = try await AppHarness(network: network)
        #expect(await second.hostConsole.line(containing: "Another game on the LAN is called “alice”; this one is listed as “alice #2”.") != nil, "\(second.hostConsole.transcript)")
        #expect(second.hostConsole.count("listed as “alice”") == 0, "never claims the name it did not get: \(second.hostConsole.transcript)")
        #expect(second.hostConsole.count("listed as") == 1, "told once")
        second.hostInbox.post(.typed("/visible off"))
        second.hostInbox.post(.typed("/visible on"))
        #expect(await second.hostConsole.line(containing: "The game is visible on the LAN again.") != nil)
        _ = await first.stopHost()
        _ = await second.stopHost()
    }

    @Test("At a terminal with players in, Ctrl-C asks as Ctrl-D and /quit do; a Ctrl-C while asked is a yes; one that cleared a line does nothing")
    func controlCAsksLikeTheOthers() async throws {
        let game = try await AppHarness(hostInteractive: true)
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob joined (1 playing).") != nil)

        game.hostInbox.post(.interrupted(clearedText: false))
        #expect(await game.hostConsole.line(containing: "1 player is in the game. End it for everyone? [y/n] (Ctrl-C or Ctrl-D: yes)") != nil, "\(game.hostConsole.transcript)")
        game.hostInbox.post(.typed("n"))
        #expect(await game.hostConsole.line(containing: "The game goes on.") != nil)
        game.hostInbox.post(.interrupted(clearedText: true))
        game.hostInbox.post(.typed("/players"))
        #expect(await game.hostConsole.line { (line: String) in line.hasPrefix("bob ") && line.contains("connected") } != nil)
        #expect(game.hostConsole.count("End it for everyone?") == 1, "a Ctrl-C that cleared a line neither asks nor ends")

        game.hostInbox.post(.interrupted(clearedText: false))
        #expect(await eventually { game.hostConsole.count("End it for everyone?") == 2 }, "\(game.hostConsole.transcript)")
        game.hostInbox.post(.interrupted(clearedText: false))
        #expect(await game.hostRun.value == nil, "a Ctrl-C while asked is a yes")
        #expect(await game.hostConsole.line(containing: "The game is over.") != nil)
        #expect(await bob.console.line(containing: "alice ended the game.") != nil, "\(bob.console.transcript)")
        _ = await bob.stop()
    }
}
