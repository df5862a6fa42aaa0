import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A player who joins (or is welcomed again) mid-round reads the scoreboard as it is now, not
/// as it was at the last round's end.
@Suite("The scoreboard a late joiner gets", .timeLimit(.minutes(1)))
struct LateScoreTests {
    @Test("A newcomer mid-round gets this round's guesses in the scores, the same as the host's and those who were there")
    func newcomerMidRound() async throws {
        try await withGame(.inMemory, configuration: GameMasterTests.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            _ = try bob.game.submit(line: "10")
            _ = try bob.game.submit(line: "42")
            #expect(await bob.roundsWon.first { _ in true } != nil)
            game.room.newRound()
            #expect(await carol.roundsStarted.first { $0.round == 2 } != nil)
            // Round 2, under way: three more guesses, paced under the throttle by waiting for each verdict.
            for (guest, value) in [(bob, "20"), (carol, "30"), (bob, "60")] {
                let before = game.hostVerdicts.all.count
                _ = try guest.game.submit(line: value)
                #expect(await game.hostVerdicts.count(atLeast: before + 1) { _ in true } >= before + 1)
            }
            #expect(await eventually { carol.game.scoreboard == game.room.rules.scoreboard.ranked }, "the one who was there is current")

            let dave = try await game.join("dave")
            let host = game.room.rules.scoreboard.ranked
            #expect(host.first { $0.player.name == "bob" }?.guesses == 4)
            #expect(dave.game.scoreboard == host, "dave: \(dave.game.scoreboard.map { "\($0.player.name) \($0.wins)/\($0.guesses)" }); host: \(host.map { "\($0.player.name) \($0.wins)/\($0.guesses)" })")
        }
    }
}
