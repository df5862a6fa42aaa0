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
    /// A game interrupted in round 2, kept in a real store's file (a snapshot, then a tick's
    /// entry) and read back: carol won round 1 and has guessed once in round 2; bob has guessed twice.
    static func interruptedGame(in directory: URL, host: PlayerRef, bob: UUID, carol: UUID) async throws -> RoomSnapshot<GuessRules> {
        let file = directory.appendingPathComponent("games/alice-guessnum.sqlite")
        let store = try RoomStore<GuessRules>(at: file)
        let (bobRef, carolRef) = (PlayerRef(id: bob, name: "bob"), PlayerRef(id: carol, name: "carol"))
        var round = try Round(number: 2, range: .standard, secret: 42)
        _ = round.judge(guess: 10, by: bobRef)
        _ = round.judge(guess: 90, by: bobRef)
        var scoreboard = Scoreboard()
        scoreboard.set(Scoreboard.Entry(player: bobRef, wins: 0, guesses: 2, bestRound: nil))
        scoreboard.set(Scoreboard.Entry(player: carolRef, wins: 1, guesses: 1, bestRound: 1))
        let rules = GuessRules(settings: GuessSettings(), secretSource: .fixed(42), resuming: round, scoreboard: scoreboard, revealSequence: 0)
        store.keep(RoomSnapshot(
            game: GuessRules.kind.id, rules: rules, round: 2, lastSequence: 8,
            seats: [.init(player: bobRef, displayName: "bob"), .init(player: carolRef, displayName: "carol")], wins: [carol: 1]))
        var carolGuesses = GuessJournalEntry()
        carolGuesses.players = [carolRef]
        carolGuesses.moves = [0, 50]
        store.append(RoomJournalEntry(lastSequence: 9, round: 2, rules: carolGuesses))
        await store.waitForWrites()
        return try #require(try RoomStore<GuessRules>(at: file).load())
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
