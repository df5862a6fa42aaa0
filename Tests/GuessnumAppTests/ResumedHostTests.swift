import Foundation
@testable import GuessnumApp
import GuessnumGame
import GuessnumStore
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// The host's screen when its game goes on from its store (`guessnum host --resume`).
@Suite("A resumed host's screen", .timeLimit(.minutes(1)))
struct ResumedHostTests {
    /// A game interrupted in round 2, kept in a real SQLite file and read back: carol won round
    /// 1 and has guessed once in round 2; bob has guessed twice.
    static func interruptedGame(in directory: URL, host: PlayerRef, bob: UUID, carol: UUID) async throws -> GameRecord {
        let store = try GameStore(at: directory.appendingPathComponent("games/alice.sqlite"))
        try store.start(GameRecord(round: RoundRecord(number: 1, range: .standard, secret: 42, salt: .random())), host: host)
        let (bobRef, carolRef) = (PlayerRef(id: bob, name: "bob"), PlayerRef(id: carol, name: "carol"))
        var first = GameJournal()
        first.players = [PlayerRecord(id: bob, displayName: "bob", name: "bob"), PlayerRecord(id: carol, displayName: "carol", name: "carol")]
        first.guesses = [GuessRecord(round: 1, player: carolRef, guess: 42)]
        first.scores = [Scoreboard.Entry(player: carolRef, wins: 1, guesses: 1, bestRound: 1)]
        first.lastSequence = 4
        var second = GameJournal()
        second.roundStarted = RoundRecord(number: 2, range: .standard, secret: 42, salt: .random())
        second.guesses = [GuessRecord(round: 2, player: bobRef, guess: 10), GuessRecord(round: 2, player: bobRef, guess: 90), GuessRecord(round: 2, player: carolRef, guess: 50)]
        second.scores = [Scoreboard.Entry(player: bobRef, wins: 0, guesses: 2, bestRound: nil), Scoreboard.Entry(player: carolRef, wins: 1, guesses: 2, bestRound: 1)]
        second.lastSequence = 9
        store.keep(first)
        store.keep(second)
        await store.waitForWrites()
        return try #require(try GameStore(at: directory.appendingPathComponent("games/alice.sqlite")).load())
    }

    @Test("After a resume, /players lists the held seats with their wins and this round's guesses, and the host reads that the game resumed at round 2, not that it starts")
    func playersAfterResume() async throws {
        let directory = Scratch.path("guessnum-resumed-host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bob, carol) = (UUID(), UUID())
        let record = try await Self.interruptedGame(in: directory, host: PlayerRef(id: UUID(), name: "alice"), bob: bob, carol: carol)
        let game = try await AppHarness(resuming: record)
        #expect(await game.hostConsole.line(containing: "The game resumed at round 2: numbers from 1 to 100.") != nil, "\(game.hostConsole.transcript)")
        #expect(await game.hostConsole.line(containing: "2 seats are held for players who have not come back yet.") != nil)
        #expect(game.hostConsole.count("Round 2 starts") == 0, "\(game.hostConsole.transcript)")

        game.hostInbox.post(.typed("/players"))
        #expect(await game.hostConsole.line { (line: String) in line.hasPrefix("carol ") && line.contains("away") && line.hasSuffix("1     1") } != nil, "\(game.hostConsole.transcript)")
        #expect(await game.hostConsole.line { (line: String) in line.hasPrefix("bob ") && line.contains("away") && line.hasSuffix("0     2") } != nil, "\(game.hostConsole.transcript)")

        let back = try game.player("carol", gameName: "alice", identity: carol)
        #expect(await game.hostConsole.line(containing: "carol is back.") != nil, "\(game.hostConsole.transcript)\n---\n\(back.console.transcript)")
        game.hostInbox.post(.typed("/players"))
        #expect(await game.hostConsole.line { (line: String) in line.hasPrefix("carol ") && line.contains("connected") && line.hasSuffix("1     1") } != nil,
                "carol back, with her win and her guess: \(game.hostConsole.transcript)")
        _ = await back.stop()
        _ = await game.stopHost()
    }
}
