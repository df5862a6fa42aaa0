@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// The host's and the players' REPLs reacting to events: typed lines, the list of games, the
/// host leaving, signals and timers, over an in-memory network with scripted consoles.
@Suite("The host's and players' REPLs", .timeLimit(.minutes(1)))
struct REPLTests {
    @Test("A player finds the game in the list, joins by its number, guesses and chats; the host sees it all")
    func playerJoinsFromTheList() async throws {
        let game = try await AppHarness()
        #expect(await game.hostConsole.line(containing: "Hosting alice's game: numbers 1–100, up to 10 players.") != nil, "\(game.hostConsole.transcript)")
        let bob = try game.player("bob")
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100, 0/10 players, round 1") != nil, "\(bob.console.transcript)")
        #expect(await eventually { bob.console.prompt == "join> " })
        bob.type("1")
        #expect(await bob.console.line(containing: "Welcome, bob! Round 1: numbers 1–100.") != nil, "\(bob.console.transcript)")
        // The welcome is printed as it arrives; the prompt changes as the REPL takes its seat.
        #expect(await eventually { bob.console.prompt == "guess> " })
        #expect(await game.hostConsole.line(containing: "bob joined (1 playing).") != nil)

        bob.type("50")
        #expect(await bob.console.line(containing: "you guessed 50: too high") != nil, "\(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob guessed 50: too high") != nil)
        bob.type("hello alice")
        #expect(await game.hostConsole.line(containing: "bob: hello alice") != nil)
        game.hostInbox.post(.typed("hi bob"))
        #expect(await bob.console.line(containing: "alice: hi bob") != nil, "\(bob.console.transcript)")
        #expect(game.hostConsole.count("alice: hi bob") == 0, "the host's own chat is not echoed")

        bob.type("42")
        #expect(await bob.console.line(containing: "you guessed 42: correct! You win round 1.") != nil)
        #expect(await bob.console.line(containing: "Round 1: the reveal matches the commitment and every verdict; the host chose this secret itself") != nil,
                "a fixed secret is said to be the host's choice: \(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob won round 1 with 2 guesses. The secret was 42.") != nil)

        bob.type("/quit")
        #expect(await bob.run.value == nil)
        #expect(await game.hostConsole.line(containing: "bob left (0 playing).") != nil)
        #expect(await game.stopHost() == nil)
    }

    @Test("The host's commands: /players, /history, /score, /new, /kick, /visible, and the wrong role's commands")
    func hostCommands() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice", timeout: .seconds(30))
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.transcript)")
        bob.type("10")
        #expect(await game.hostConsole.line(containing: "bob guessed 10: too low") != nil)

        game.hostInbox.post(.typed("/players"))
        #expect(await game.hostConsole.line(containing: "guesses this round") != nil)
        #expect(await eventually { game.hostConsole.lines.contains { $0.hasPrefix("bob ") && $0.contains("connected") && $0.hasSuffix(" 1") } },
                "\(game.hostConsole.transcript)")
        game.hostInbox.post(.typed("/history"))
        #expect(await game.hostConsole.line(containing: "bob guessed 10: too low") != nil)
        game.hostInbox.post(.typed("/score"))
        #expect(await game.hostConsole.line(containing: "1. bob: 0 wins, 1 guess") != nil)
        game.hostInbox.post(.typed("/name carl"))
        #expect(await game.hostConsole.line(containing: "That is a command for players; /help lists the host's.") != nil)
        game.hostInbox.post(.typed("/visible maybe"))
        #expect(await game.hostConsole.line(containing: "Use /visible on or /visible off.") != nil)
        game.hostInbox.post(.typed("/new 5-1"))
        #expect(await game.hostConsole.line(containing: "The range 5-1 is reversed") != nil)
        game.hostInbox.post(.typed("/new 1-500"))
        #expect(await bob.console.line(containing: "Round 2 starts: guess a number from 1 to 500.") != nil, "\(bob.console.transcript)")
        game.hostInbox.post(.typed("/kick nobody"))
        #expect(await game.hostConsole.line(containing: "There is no player called “nobody”; /players lists them.") != nil)

        game.hostInbox.post(.typed("/kick bob"))
        let kicked = await game.hostConsole.line(containing: " was removed, and cannot join again for 10 minutes, under that name or from that address (/unkick bob lets them back).")
        #expect(kicked?.hasPrefix("bob (client") == true && kicked?.contains(".memory, key ") == true, "says which bob, by address and key: \(game.hostConsole.transcript)")
        #expect(await game.hostConsole.line(containing: "bob was removed by the host (0 playing).") != nil, "\(game.hostConsole.transcript)")
        #expect(await bob.console.line(containing: "You were removed from the game by the host.") != nil, "\(bob.console.transcript)")
        #expect(await eventually { bob.console.prompt == "join> " }, "back in the list of games")

        game.hostInbox.post(.typed("/visible off"))
        #expect(await game.hostConsole.line(containing: "The game is no longer announced") != nil)
        #expect(await bob.console.line(containing: "1) alice's game is no longer listed") != nil, "\(bob.console.transcript)\n---\n\(game.hostConsole.transcript)")
        game.hostInbox.post(.typed("/visible on"))
        #expect(await game.hostConsole.line(containing: "The game is visible on the LAN again.") != nil)

        #expect(await bob.console.line(containing: "1) alice — numbers 1–500, 0/10 players, round 2") != nil, "listed again: \(bob.console.transcript)")
        #expect(bob.console.count("Joining alice") == 1, "--game does not rejoin a game it was removed from")
        #expect(await bob.stop() == nil)
        #expect(await game.stopHost() == nil)
    }

    @Test("A player's commands in a game and in the list; the end of input quits; a signal quits the host")
    func playerCommands() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob")
        bob.type("/help")
        #expect(await bob.console.line(containing: "Type the number of a game to join it. Games appear in the list as they are found.") != nil)
        bob.type("/players")
        #expect(await bob.console.line(containing: "/players works in a game; /help lists what works here.") != nil)
        bob.type("7")
        #expect(await bob.console.line(containing: "There is no game number 7;") != nil)
        bob.type("hello")
        #expect(await bob.console.line(containing: "Type the number of a game to join it, or /quit.") != nil)
        #expect(await bob.console.line(containing: "1) alice") != nil)
        bob.type("1")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("/help")
        #expect(await bob.console.line(containing: "/leave             leave this game and go back to the list of games") != nil, "\(bob.console.transcript)")
        bob.type("/kick alice")
        #expect(await bob.console.line(containing: "That is a command for the host; /help lists yours.") != nil)
        bob.type("/name")
        #expect(await bob.console.line(containing: "Use /name NEW.") != nil)
        bob.type("/name bobby")
        #expect(await game.hostConsole.line(containing: "bob is now bobby.") != nil, "\(game.hostConsole.transcript)")
        bob.type("/leave")
        #expect(await bob.console.line(containing: "You left alice's game.") != nil)
        #expect(await eventually { bob.console.prompt == "join> " })
        bob.inbox.post(.inputEnded)
        #expect(await bob.run.value == nil, "the end of input quits from the list")
        #expect(await game.hostConsole.line(containing: "bobby left") != nil, "the host saw the leave before it stopped")
        #expect(await game.stopHost() == nil)
    }

    @Test("--game: a game that never appears is given up when the timer fires, with exit code 3")
    func wantedGameNeverFound() async throws {
        let game = try await AppHarness()
        let carol = try game.player("carol", gameName: "nobody", timeout: .milliseconds(300))
        let failure = await carol.run.value
        #expect(failure == AppFailure("No game called “nobody” was found within 0.3 s.", exitCode: 3), "\(String(describing: failure))")
        #expect(await game.stopHost() == nil)
    }

    @Test("At a terminal, Ctrl-D ends the host's game; from a script, the end of input does not")
    func hostInputEnds() async throws {
        let scripted = try await AppHarness()
        scripted.hostInbox.post(.inputEnded)
        scripted.hostInbox.post(.typed("/score"))
        #expect(await scripted.hostConsole.line(containing: "No scores yet.") != nil, "a scripted host keeps serving")
        #expect(await scripted.stopHost() == nil)

        let interactive = try await AppHarness(hostInteractive: true)
        interactive.hostInbox.post(.inputEnded)
        #expect(await interactive.hostRun.value == nil)
    }
}
