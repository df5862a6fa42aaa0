@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Rooms
import Testing

/// A player whose link drops gets back in by themselves while the host holds the seat, keeps
/// what they type meanwhile, and gives up with a sentence when the seat is no longer held.
@Suite("Getting back into a game after a drop", .timeLimit(.minutes(1)))
struct ReconnectTests {
    @Test("A dropped link: the player says so once, keeps a line typed meanwhile, gets back into the same seat and sends it; the host shows away and back")
    func backInTheSameSeat() async throws {
        let game = try await AppHarness()
        let laptop = game.network.machine()
        let bob = try game.player("bob", gameName: "alice", machine: laptop)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("10")
        #expect(await game.hostConsole.line(containing: "bob guessed 10: too low") != nil)

        laptop.unplug()
        #expect(await bob.console.line(containing: "Lost the connection to alice's game — reconnecting… (your seat is kept for 60 s)") != nil, "\(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob is away") != nil, "\(game.hostConsole.transcript)")
        bob.type("42")
        #expect(await bob.console.line(containing: "Not connected: this is sent when you are back in the game.") != nil)
        #expect(game.room.players.map(\.name) == ["bob"] && game.room.players.first.map { game.room.isAway($0.id) } == true)

        laptop.plugIn()
        #expect(await bob.console.line(containing: "Reconnected to alice's game.", within: .seconds(30)) != nil, "\(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob is back.") != nil, "\(game.hostConsole.transcript)")
        #expect(await game.hostConsole.line(containing: "bob won round 1") != nil, "the line kept is sent once back: \(game.hostConsole.transcript)")
        #expect(game.hostConsole.count("joined") == 1, "the same seat, not a new one: \(game.hostConsole.transcript)")
        #expect(bob.console.count("reconnecting") == 1)

        // A goodbye is not a drop: the host ending the game is never taken for one.
        game.hostInbox.post(.typed("/quit"))
        #expect(await bob.console.line(containing: "alice ended the game.") != nil)
        #expect(bob.console.count("reconnecting") == 1, "\(bob.console.transcript)")
        _ = await bob.stop()
    }

    @Test("Nothing missed: what happened while a player was away is shown once back, in order, and the fairness check of a round won meanwhile still runs")
    func missedLinesAreReplayed() async throws {
        let game = try await AppHarness()
        let laptop = game.network.machine()
        let bob = try game.player("bob", gameName: "alice", machine: laptop)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("10")
        #expect(await bob.console.line(containing: "you guessed 10: too low") != nil)

        // Bob's laptop drops off the network; carol joins and plays while bob is away.
        laptop.unplug()
        #expect(await bob.console.line(containing: "reconnecting…") != nil, "\(bob.console.transcript)")
        #expect(await game.hostConsole.line(containing: "bob is away") != nil)
        let carol = try game.player("carol", gameName: "alice")
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil)
        carol.type("hello bob")
        carol.type("42")
        #expect(await game.hostConsole.line(containing: "carol won round 1") != nil, "\(game.hostConsole.transcript)")
        laptop.plugIn()

        #expect(await bob.console.line(containing: "Reconnected to alice's game.", within: .seconds(30)) != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "While you were away (") != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "carol: hello bob") != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "carol guessed 42: correct") != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "Round 1: the reveal matches the commitment and every verdict") != nil,
                "the fairness check of the round won while away: \(bob.console.transcript)")
        let lines = bob.console.transcript.components(separatedBy: "\n")
        let order = ["Reconnected", "While you were away", "carol joined", "carol: hello bob", "carol guessed 42"].map { marker in
            lines.firstIndex { $0.contains(marker) } ?? -1
        }
        #expect(order == order.sorted() && !order.contains(-1), "shown in the order it happened: \(bob.console.transcript)")
        #expect(bob.console.count("Welcome, bob!") == 1, "a replay, not a fresh welcome: \(bob.console.transcript)")
        _ = await bob.stop()
        _ = await carol.stop()
    }

    @Test("Told to go, a player never reconnects: removed by the host, or the game full")
    func toldToGoIsNotADrop() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        game.hostInbox.post(.typed("/kick bob"))
        #expect(await bob.console.line(containing: "You were removed from the game by the host.") != nil, "\(bob.console.transcript)")
        try await Task.sleep(for: .milliseconds(1_500))  // longer than the first try would wait
        #expect(bob.console.count("reconnecting") == 0 && bob.console.count("Reconnected") == 0, "\(bob.console.transcript)")
        #expect(game.hostConsole.count("bob is away") == 0, "\(game.hostConsole.transcript)")
        _ = await bob.stop()
    }

    @Test("Past the seat's grace period the player gives up with a sentence, is told which lines typed meanwhile were not sent, and is shown the list; the host frees the seat")
    func givesUp() async throws {
        let game = try await AppHarness(grace: .seconds(2))
        let laptop = game.network.machine()
        let bob = try game.player("bob", gameName: "alice", machine: laptop)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        laptop.unplug()
        #expect(await bob.console.line(containing: "reconnecting… (your seat is kept for 2 s)") != nil, "\(bob.console.transcript)")
        for index in 1...Reconnection.lineLimit + 1 { bob.type("chat line \(index)") }
        #expect(await bob.console.line(containing: "Not sent: \(Reconnection.lineLimit) lines are waiting for the connection to come back already.") != nil)
        #expect(await bob.console.line(containing: "Could not get back into alice's game within 2 s: the seat is given up.", within: .seconds(30)) != nil, "\(bob.console.transcript)")
        let unsent = (1...Reconnection.lineLimit).map { "“chat line \($0)”" }.joined(separator: ", ")
        #expect(await bob.console.line(containing: "Not sent, as you are out of the game: \(unsent).") != nil, "no line is lost without a word: \(bob.console.transcript)")
        #expect(!game.hostConsole.transcript.contains("bob left"), "the host holds the seat for its grace period, by its session's clock")
        await game.network.advanceTime(by: .seconds(2) + .milliseconds(100))
        #expect(await game.hostConsole.line(containing: "bob left (0 playing).", within: .seconds(30)) != nil, "\(game.hostConsole.transcript)")
        #expect(await bob.console.line(containing: "Searching for games…") != nil, "back to the list: \(bob.console.transcript)")
        #expect(await eventually { bob.console.allPrompts.last == "join> " }, "\(bob.console.allPrompts)")
        laptop.plugIn()
        _ = await bob.stop()
    }

    @Test("The tries are spread: the first within a second, then one every 1 to 1.5 s for the first 30 s (a restarted host finds every player back within 1.5 s of listening), then further apart up to the longest step, and different for each player")
    func backoffIsSpread() {
        var delays: [[Duration]] = []
        for seed in UInt64(1)...5 {
            var generator = SplitMix64(seed: seed)
            var backoff = ReconnectBackoff()
            delays.append((0..<40).map { _ in backoff.nextDelay(using: &generator) })
        }
        for tries in delays {
            #expect(tries[0] >= .milliseconds(200) && tries[0] <= .seconds(1))
            #expect(tries.dropFirst().allSatisfy { $0 >= .seconds(1) && $0 <= .seconds(12) }, "never more than one a second: \(tries)")
            // The delays handed out while less than 30 s had been waited in all.
            var waited = Duration.zero
            var steady: [Duration] = []
            for delay in tries where waited < .seconds(30) {
                steady.append(delay)
                waited += delay
            }
            #expect(steady.count >= 20 && steady.allSatisfy { $0 <= .milliseconds(1500) }, "soon and often for the first 30 s: \(steady)")
            #expect(tries[steady.count] > .milliseconds(1500) && tries.last! >= .seconds(8), "then the steps grow: \(tries)")
        }
        #expect(Set(delays.map { $0[0] }).count == 5, "players that lost a host together do not come back together")
    }
}
