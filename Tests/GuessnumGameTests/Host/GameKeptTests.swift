import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// A host's game kept tick by tick as a store keeps every room (a snapshot, then each tick's
/// entry), and resumed from it after a crash.
@Suite("A game kept and resumed", .timeLimit(.minutes(1)))
struct GameKeptTests {
    let alice = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func table(secret: Int64 = 42) throws -> GuessTable {
        let configuration = GuessHosting(secretSource: .fixed(secret))
        return try GuessTable(configuration: configuration, host: alice, secret: secret)
    }

    @Test("The snapshots and entries of each tick bring what is kept up to date; the game resumed from it has the same round, commitment, guesses, names, scores and numbering, every player away in a held seat")
    func resumeFromJournals() throws {
        var table = try table()
        let (bob, carol, dave) = (peer("bob"), peer("carol"), peer("dave"))
        _ = table.join(bob)
        _ = table.join(carol)
        _ = table.takeFlush()
        _ = table.guess(50, from: bob.identity, at: now)
        _ = table.guess(42, from: carol.identity, at: now)  // carol wins round 1
        _ = table.takeFlush()
        _ = try table.startRound(range: GuessRange(1, 10), secret: 7, salt: .random())
        _ = table.guess(3, from: bob.identity, at: now)
        _ = table.rename(carol.identity, to: "caz", at: now + .seconds(1))
        _ = table.join(dave)
        _ = table.takeFlush()
        _ = table.leave(dave.identity)
        _ = table.guess(9, from: carol.identity, at: now + .seconds(1))
        _ = table.takeFlush()
        #expect(table.keptEntries == 1, "the last tick, a leave and a guess, is an entry, not a snapshot")
        let ticks = table.keptSnapshots + table.keptEntries
        _ = table.takeFlush()
        #expect(table.keptSnapshots + table.keptEntries == ticks, "nothing changed since")

        let resumedAt = ContinuousClock.now
        let resumed = try GuessTable(configuration: table.configuration, host: alice, kept: try #require(table.kept), at: resumedAt)
        let small = try GuessRange(1, 10)
        #expect(resumed.round.number == 2 && resumed.round.range == small)
        #expect(resumed.round.commitment == table.round.commitment, "the same commitment: guests' fairness checks still hold")
        #expect(resumed.round.history.map(\.guess) == [3, 9] && resumed.round.history.map(\.verdict) == table.round.history.map(\.verdict))
        #expect(resumed.round.guesses(by: bob.identity) == 1 && resumed.round.countedGuesses == 2)
        #expect(resumed.scoreboard.ranked == table.scoreboard.ranked)
        #expect(resumed.players.map(\.player.name) == ["bob", "caz"], "dave left; carol kept her new name")
        #expect(resumed.players.allSatisfy { $0.awaySince == resumedAt }, "held for them until they come back")
        #expect(resumed.lastSequence == table.lastSequence + GuessTable.resumeGap, "numbering goes on past a gap: no number is given twice")

        // Back in the held seat, with the same name.
        var game = resumed
        guard case .returned(let back) = game.join(carol) else { Issue.record("carol's seat is held"); return }
        #expect(back.player.name == "caz")
    }

    @Test("Chat and a player away move the kept number on; the resumed game numbers past them, and a player back with a number from before gets a welcome")
    func numbersAreNeverGivenTwice() throws {
        var table = try table()
        let (bob, carol) = (peer("bob"), peer("carol"))
        _ = table.join(bob)
        _ = table.join(carol)
        _ = table.takeFlush()
        _ = table.chat("hello", from: bob.identity, at: now)
        _ = table.drop(carol.identity, at: now)
        _ = table.takeFlush()
        let kept = try #require(table.kept)
        #expect(table.keptEntries == 1, "the chat and the drop are an entry")
        #expect(kept.lastSequence == table.lastSequence, "chat and away items are numbered, and the number is kept")
        let bobHas = table.lastSequence

        var resumed = try GuessTable(configuration: table.configuration, host: alice, kept: kept, at: now)
        _ = resumed.join(bob, resumeAfter: bobHas)
        let flush = resumed.takeFlush()
        #expect(flush.replays.isEmpty && flush.welcomes.map(\.peer) == [bob], "what the earlier life sent is not kept: a welcome, not an empty replay")
        _ = resumed.chat("again", from: bob.identity, at: now + .seconds(5))
        let batch = resumed.takeFlush().batch
        #expect(batch?.items.allSatisfy { ($0.sequence ?? 0) > bobHas + GuessTable.resumeGap } == true)
    }

    @Test("A round won before the crash is resumed won, with its reveal; without held seats nobody is seated")
    func wonRoundAndNoGrace() throws {
        var table = try table()
        let bob = peer("bob")
        _ = table.join(bob)
        _ = table.guess(42, from: bob.identity, at: now)
        _ = table.takeFlush()
        var configuration = table.configuration
        configuration.room.awayGracePeriod = .zero
        let resumed = try GuessTable(configuration: configuration, host: alice, kept: try #require(table.kept), at: now)
        #expect(resumed.round.isWon && resumed.reveal?.winner?.id == bob.identity && resumed.reveal?.secret == 42)
        #expect(resumed.players.isEmpty)
        #expect(resumed.scoreboard.entry(for: bob.identity)?.wins == 1)
    }
}
