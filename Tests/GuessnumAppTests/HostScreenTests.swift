@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// What the host reads: /history across rounds, the final scores, who is turned away.
@Suite("The host's screen", .timeLimit(.minutes(1)))
struct HostScreenTests {
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
}
