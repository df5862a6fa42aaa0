import Foundation
@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// Private games in the application: the list says so, a player at a terminal is asked for the
/// password (hidden), a script gives it in the environment or is told to, and a wrong one is
/// turned away with the host's sentence.
@Suite("Private games in the application", .timeLimit(.minutes(1)))
struct PrivateGameAppTests {
    static let password = try! GamePassword("open sesame")

    func console(_ player: Player) -> [String] { player.console.allPrompts }

    @Test("At a terminal the player is asked for the password, hidden; a wrong one is turned away, the right one plays")
    func terminalAsks() async throws {
        let game = try await AppHarness(password: Self.password)
        let bob = try game.player("bob", interactive: true)
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100") != nil, "\(bob.console.lines)")
        #expect(bob.console.lines.contains { $0.contains("1) alice") && $0.contains("private (password)") }, "\(bob.console.lines)")
        bob.type("1")
        #expect(await eventually { bob.console.prompt == "(hidden) Password for alice's game (not shown): " }, "\(String(describing: bob.console.prompt))")
        bob.type("open says me")
        #expect(await bob.console.line(containing: GameError.passwordNotConfirmed(host: "alice").message) != nil, "\(bob.console.lines)")
        #expect(game.room.playerCount == 0)
        bob.type("1")
        #expect(await eventually { bob.console.prompt?.hasPrefix("(hidden) Password for alice") == true })
        bob.type("open sesame")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        #expect(!bob.console.lines.contains { $0.contains("open sesame") || $0.contains("open says me") })
        _ = await bob.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("While the password question is open, the list's changes wait: nothing is printed under the hidden question, and the list is shown after the answer")
    func questionIsNotInterrupted() async throws {
        let game = try await AppHarness(password: Self.password)
        let bob = try game.player("bob", interactive: true)
        #expect(await bob.console.line(containing: "1) alice — numbers 1–100") != nil, "\(bob.console.lines)")
        bob.type("1")
        #expect(await eventually { bob.console.prompt?.hasPrefix("(hidden) Password for alice") == true }, "\(String(describing: bob.console.prompt))")
        let asked = bob.console.lines.count
        // Meanwhile carol joins: the host announces one player more.
        let carol = try game.player("carol", gameName: "alice", password: Self.password)
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil, "\(carol.console.lines)")
        // Bob's list hears of it (and would print the change at once, under the question).
        #expect(await eventually {
            bob.repl.games.entry(for: game.host.session.localPeer).map { GameAdvertisement(decoding: $0.info).playerCount == 1 } ?? false
        })
        try await Task.sleep(for: .milliseconds(50))
        #expect(bob.console.lines.count == asked, "printed under the question: \(bob.console.lines.dropFirst(asked))")
        bob.type("open says me")
        #expect(await bob.console.line(containing: GameError.passwordNotConfirmed(host: "alice").message) != nil, "\(bob.console.lines)")
        #expect(await bob.console.line(containing: "1/10 players") != nil, "the list is shown after the answer: \(bob.console.lines)")
        _ = await carol.stop()
        _ = await bob.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("Ctrl-C at the password question abandons it and shows the list again")
    func interruptAbandons() async throws {
        let game = try await AppHarness(password: Self.password)
        let bob = try game.player("bob", interactive: true)
        #expect(await bob.console.line(containing: "1) alice") != nil)
        bob.type("1")
        #expect(await eventually { bob.console.prompt?.hasPrefix("(hidden) ") == true })
        bob.inbox.post(.interrupted(clearedText: false))
        #expect(await bob.console.line(containing: "Not joined.") != nil, "\(bob.console.lines)")
        // Still in the list: the game can be picked again.
        bob.type("1")
        #expect(await eventually { console(bob).filter { $0.hasPrefix("(hidden) ") }.count == 2 })
        _ = await bob.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("A script with the password in the environment joins with --game; without it, it is told to set it (exit 3)")
    func scripts() async throws {
        let game = try await AppHarness(password: Self.password)
        let bob = try game.player("bob", gameName: "alice", password: Self.password)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        _ = await bob.stop()

        let carol = try game.player("carol", gameName: "alice")
        let failure = await carol.run.value
        #expect(failure == AppFailure("Could not join “alice”.", exitCode: 3))
        #expect(carol.console.count("alice's game is private: set GUESSNUM_PASSWORD to its password to join it from a script.") == 1, "\(carol.console.lines)")

        let dave = try game.player("dave", gameName: "alice", password: try GamePassword("guess"))
        #expect(await dave.run.value == AppFailure("Could not join “alice”.", exitCode: 3))
        #expect(dave.console.count(GameError.passwordNotConfirmed(host: "alice").message) == 1, "\(dave.console.lines)")
        #expect(await game.stopHost() == nil)
    }

    @Test("GUESSNUM_PASSWORD is read when set, refused when empty, and the host without a terminal needs it")
    func environment() async throws {
        #expect(try PasswordQuestion.fromEnvironment([:]) == nil)
        #expect(try PasswordQuestion.fromEnvironment(["GUESSNUM_PASSWORD": "open sesame"]) == Self.password)
        #expect(throws: AppFailure("GUESSNUM_PASSWORD: \(GameError.emptyPassword.message)", exitCode: 64)) {
            try PasswordQuestion.fromEnvironment(["GUESSNUM_PASSWORD": ""])
        }
    }

    @Test("The host types the password twice, hidden, until both match")
    func hostTypesTwice() async throws {
        let console = ScriptedConsole(interactive: true)
        let inbox = Inbox()
        let asked = Task { try await PasswordQuestion.askHost(console: console, inbox: inbox, environment: [:]) }
        inbox.post(.typed("open sesame"))
        inbox.post(.typed("open sesam"))
        #expect(await console.line(containing: "The two passwords differ; type them again.") != nil)
        inbox.post(.typed(""))
        #expect(await console.line(containing: GameError.emptyPassword.message) != nil)
        inbox.post(.typed("open sesame"))
        inbox.post(.typed("open sesame"))
        #expect(try await asked.value == Self.password)
        #expect(console.allPrompts.filter { $0.hasPrefix("(hidden) ") }.count == 5, "\(console.allPrompts)")

        let script = Task { try await PasswordQuestion.askHost(console: ScriptedConsole(interactive: false), inbox: Inbox(), environment: [:]) }
        await #expect(throws: AppFailure("--password needs a terminal to ask at, or the password in GUESSNUM_PASSWORD.", exitCode: 64)) {
            try await script.value
        }
    }

    @Test("A short password is taken with a one-line hint, typed or from the environment; a longer one without")
    func shortPasswordHint() async throws {
        let console = ScriptedConsole(interactive: true)
        let inbox = Inbox()
        let asked = Task { try await PasswordQuestion.askHost(console: console, inbox: inbox, environment: [:]) }
        inbox.post(.typed("abcd"))
        inbox.post(.typed("abcd"))
        #expect(try await asked.value == GamePassword("abcd"))
        #expect(console.lines.last == "That password is short (4 characters): the game lets each network try only a few passwords a minute, but one of 8 characters or more is safer.")

        let fromEnvironment = ScriptedConsole(interactive: false)
        #expect(try await PasswordQuestion.askHost(console: fromEnvironment, inbox: Inbox(), environment: ["GUESSNUM_PASSWORD": "1234"]) == GamePassword("1234"))
        #expect(fromEnvironment.count("That password is short (4 characters)") == 1)

        let long = ScriptedConsole(interactive: false)
        _ = try await PasswordQuestion.askHost(console: long, inbox: Inbox(), environment: ["GUESSNUM_PASSWORD": "open sesame"])
        #expect(long.count("short") == 0)
    }
}
