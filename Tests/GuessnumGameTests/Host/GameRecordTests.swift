import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// A host's game kept tick by tick as a record, and resumed from it after a crash.
@Suite("A game kept and resumed", .timeLimit(.minutes(1)))
struct GameRecordTests {
    let alice = PlayerRef(id: UUID(), name: "alice")
    let now = ContinuousClock.now

    func table(secret: Int64 = 42) throws -> GuessTable {
        let configuration = GameConfiguration(secretSource: .fixed(secret))
        return try GuessTable(configuration: configuration, host: alice, secret: secret)
    }

    /// One tick of a host that keeps its game: the flush, then the journal applied to `record`.
    static func tick(_ table: inout GuessTable, into record: inout GameRecord) {
        _ = table.takeFlush()
        if let journal = table.takeJournal() { record.apply(journal) }
    }

    @Test("The journals of each tick bring a record up to date; the game resumed from it has the same round, commitment, guesses, names, scores and numbering, every player away in a held seat")
    func resumeFromJournals() throws {
        var table = try table()
        var record = table.record
        let (bob, carol, dave) = (peer("bob"), peer("carol"), peer("dave"))
        _ = table.join(bob)
        _ = table.join(carol)
        Self.tick(&table, into: &record)
        _ = table.guess(50, from: bob.identity, at: now)
        _ = table.guess(42, from: carol.identity, at: now)  // carol wins round 1
        Self.tick(&table, into: &record)
        _ = try table.startRound(range: GuessRange(1, 10), secret: 7, salt: .random())
        _ = table.guess(3, from: bob.identity, at: now)
        _ = table.rename(carol.identity, to: "caz", at: now + .seconds(1))
        _ = table.join(dave)
        Self.tick(&table, into: &record)
        _ = table.leave(dave.identity)
        _ = table.guess(9, from: carol.identity, at: now + .seconds(1))
        Self.tick(&table, into: &record)
        #expect(table.takeJournal() == nil, "nothing changed since")

        let resumedAt = ContinuousClock.now
        let resumed = try GuessTable(configuration: table.configuration, host: alice, record: record, at: resumedAt)
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

    @Test("Chat and a player away move the journaled number on; the resumed game numbers past them, and a player back with a number from before gets a welcome")
    func numbersAreNeverGivenTwice() throws {
        var table = try table()
        var record = table.record
        let (bob, carol) = (peer("bob"), peer("carol"))
        _ = table.join(bob)
        _ = table.join(carol)
        Self.tick(&table, into: &record)
        _ = table.chat("hello", from: bob.identity, at: now)
        _ = table.drop(carol.identity, at: now)
        Self.tick(&table, into: &record)
        #expect(record.lastSequence == table.lastSequence, "chat and away items are numbered, and the number is kept")
        let bobHas = table.lastSequence

        var resumed = try GuessTable(configuration: table.configuration, host: alice, record: record, at: now)
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
        var record = table.record
        _ = table.takeFlush()
        if let journal = table.takeJournal() { record.apply(journal) }
        var configuration = table.configuration
        configuration.awayGracePeriod = .zero
        let resumed = try GuessTable(configuration: configuration, host: alice, record: record, at: now)
        #expect(resumed.round.isWon && resumed.reveal?.winner?.id == bob.identity && resumed.reveal?.secret == 42)
        #expect(resumed.players.isEmpty)
        #expect(resumed.scoreboard.entry(for: bob.identity)?.wins == 1)
    }
}
