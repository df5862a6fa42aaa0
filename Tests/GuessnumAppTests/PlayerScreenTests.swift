@testable import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// What a player reads in a game: right, current, and in the host's order.
@Suite("A player's screen", .timeLimit(.minutes(1)))
struct PlayerScreenTests {
    @Test("/players lists the players, not the host, in aligned columns; /score is current and says '1 guess'")
    func playersAndScore() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("10")
        bob.type("/players")
        #expect(await bob.console.line(containing: "guesses this round") != nil)
        let table = bob.console.lines.drop { !$0.contains("guesses this round") }.prefix(3)
        #expect(table.first == "name  state       wins  guesses this round", "\(table)")
        #expect(table.dropFirst().first == "bob   connected   0     1", "columns line up under the header: \(table)")
        #expect(!table.contains { $0.hasPrefix("alice") }, "the host is not a player: \(table)")
        bob.type("/score")
        #expect(await bob.console.line(containing: "1. bob: 0 wins, 1 guess") != nil, "current before any round ended: \(bob.console.transcript)")
        bob.type("/name bobby")
        #expect(await bob.console.line(containing: "bob is now bobby.") != nil)
        bob.type("/score")
        #expect(await bob.console.line(containing: "1. bobby: 0 wins, 1 guess") != nil, "under the new name: \(bob.console.transcript)")
        _ = await bob.stop()
        _ = await game.stopHost()
    }

    @Test("/score lists every player in the game, one who has not guessed yet too, for players and the host alike")
    func scoreListsEveryone() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        let carol = try game.player("carol", gameName: "alice")
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil)
        #expect(await bob.console.line(containing: "carol joined") != nil)
        bob.type("10")
        #expect(await bob.console.line(containing: "you guessed 10") != nil)
        bob.type("/score")
        #expect(await bob.console.line(containing: "2. carol: 0 wins, 0 guesses") != nil, "\(bob.console.transcript)")
        game.hostInbox.post(.typed("/score"))
        #expect(await game.hostConsole.line(containing: "2. carol: 0 wins, 0 guesses") != nil, "\(game.hostConsole.transcript)")
        _ = await bob.stop()
        _ = await carol.stop()
        _ = await game.stopHost()
    }

    @Test("Piped lines are answered in order: a guess's verdict comes before the /players typed after it")
    func answersInOrder() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        for guess in [20, 30, 40] { bob.type("\(guess)") }
        bob.type("/history")
        #expect(await bob.console.line(containing: "bob guessed 40: too low") != nil, "\(bob.console.transcript)")
        let lines = bob.console.lines
        let verdict = try #require(lines.firstIndex { $0 == "you guessed 40: too low" })
        let history = try #require(lines.firstIndex { $0.contains("bob guessed 20") })
        #expect(verdict < history, "\(lines)")
        _ = await bob.stop()
        _ = await game.stopHost()
    }

    @Test("A number too large for any range is answered as typed, without asking the host")
    func hugeNumber() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("99999999999999999999999")
        #expect(await bob.console.line(containing: "99999999999999999999999 is out of range: guess a number from 1 to 100.") != nil, "\(bob.console.transcript)")
        #expect(game.hostConsole.count("guessed") == 0)
        _ = await bob.stop()
        _ = await game.stopHost()
    }

    @Test("A player's /history still shows the last round once the next has started, until it has guesses of its own")
    func historyKeepsTheLastRound() async throws {
        let game = try await AppHarness()
        let bob = try game.player("bob", gameName: "alice")
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil)
        bob.type("10")
        bob.type("42")
        #expect(await bob.console.line(containing: "Round 2") != nil, "\(bob.console.transcript)")
        bob.type("/history")
        #expect(await bob.console.line(containing: "No guesses yet in round 2. Round 1 (you won it; the secret was 42):") != nil, "\(bob.console.transcript)")
        #expect(await bob.console.line(containing: "bob guessed 10: too low") != nil, "the last round's guesses: \(bob.console.transcript)")
        _ = await bob.stop()
        _ = await game.stopHost()
    }

    @Test("A game listed under another name is joined and named under that name; /visible on when visible says so")
    func listedName() async throws {
        let network = InMemoryNetwork()
        let first = try await AppHarness(network: network)
        #expect(await first.hostConsole.line(containing: "Hosting alice's game") != nil)
        let second = try await AppHarness(network: network)
        #expect(await second.hostConsole.line(containing: "this one is listed as “alice #2”") != nil, "\(second.hostConsole.transcript)")
        let bob = try second.player("bob", gameName: "alice #2")
        #expect(await bob.console.line(containing: "Joined alice #2's game of guess-the-number.") != nil, "\(bob.console.transcript)")
        #expect(bob.console.count("Joining alice #2…") == 1)
        second.hostInbox.post(.typed("/visible on"))
        #expect(await second.hostConsole.line(containing: "The game is already visible on the LAN.") != nil)
        _ = await bob.stop()
        _ = await first.stopHost()
        _ = await second.stopHost()
    }

    @Test("Without discovery the host says how players can still join, and the list says once why it is empty")
    func noDiscovery() async throws {
        let network = InMemoryNetwork()
        network.discovery.isAvailable = false
        let game = try await AppHarness(network: network)
        #expect(await game.hostConsole.line(containing: "Players cannot find it in the list while discovery is unavailable; they join directly: guessnum join") != nil,
                "\(game.hostConsole.transcript)")
        let bob = try game.player("bob")
        #expect(await bob.console.line(containing: "The in-memory discovery service is switched off.") != nil, "\(bob.console.transcript)")
        #expect(bob.console.count("Searching for games") == 0, "no pretending to search")
        #expect(bob.console.count("switched off") == 1, "said once")
        _ = await bob.stop()
        _ = await game.stopHost()
    }
}

extension PlayerScreenTests {
    @Test("A listed game whose host does not answer: the failure names the game, and the list marks it")
    func gameThatDoesNotAnswer() async throws {
        let game = try await AppHarness()
        let ghost = try PeerID(displayName: "ghost")
        // An announcement left behind by a host that is gone: nobody listens on its port.
        let stale = try await game.network.discovery.publish(
            Advertisement(serviceType: GameAdvertisement.serviceType, peer: ghost, port: 1,
                          info: GameAdvertisement(range: 1...100, playerCount: 2, maximumPlayers: 10, round: 3).discoveryInfo)) { _ in }
        let bob = try game.player("bob")
        #expect(await bob.console.line(containing: "ghost — numbers 1–100, 2/10 players, round 3") != nil, "\(bob.console.transcript)")
        let number = try #require(bob.console.lines.last { $0.contains(") ghost") }?.split(separator: ")").first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        bob.type("\(number)")
        #expect(await bob.console.line(containing: "Could not join ghost:") != nil, "the failure names the game: \(bob.console.transcript)")
        #expect(await bob.console.line(containing: "ghost — numbers 1–100, 2/10 players, round 3, not answering") != nil, "\(bob.console.transcript)")
        await stale.cancel()
        _ = await bob.stop()
        _ = await game.stopHost()
    }
}
