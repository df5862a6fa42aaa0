import Rooms
import Testing

@testable import RockPaperScissors

/// The throw waits for the players who have yet to choose, then for those yet to reveal; one
/// who runs out of time loses the throw, and when both do the match ends without a winner.
@Suite("Rock-paper-scissors against the turn clock", .timeLimit(.minutes(1)))
struct RPSTurnClockTests {
    @Test("A player who does not choose in time loses the throw, one who does not reveal loses the next: the match is decided by the clock")
    func oneLatePlayer() throws {
        var table = try Table()
        #expect(table.rules.awaited == [alice, bob])
        try table.send(SealedHand(hand: .rock).commitMove, from: alice)
        #expect(table.rules.awaited == [bob])
        #expect(table.rules.timedOut([bob]) == [.outOfTime(player: bob, score: [SeatScore(player: alice, wins: 1), SeatScore(player: bob, wins: 0)])])
        #expect(table.rules.view(for: nil).throwNumber == 2)
        #expect(table.rules.awaited == [alice, bob], "a new throw: both choose again")

        let alices = SealedHand(hand: .paper)
        try table.send(alices.commitMove, from: alice)
        try table.send(SealedHand(hand: .rock).commitMove, from: bob)
        #expect(table.rules.awaited == [alice, bob], "both to reveal")
        try table.send(alices.revealMove, from: alice)
        #expect(table.rules.awaited == [bob])
        let score = [SeatScore(player: alice, wins: 2), SeatScore(player: bob, wins: 0)]
        #expect(table.rules.timedOut([bob]) == [.outOfTime(player: bob, score: score), .matchWon(winner: alice, score: score)])
        #expect(table.rules.roundResult == RoundResult(winners: [alice]))
        #expect(table.rules.awaited.isEmpty)
        #expect(table.rules.timedOut([alice]).isEmpty, "an ended match decides nothing more")
    }

    @Test("When neither player chooses in time the match ends without a winner; a watcher's time is never asked about")
    func bothLate() throws {
        var table = try Table()
        #expect(table.rules.timedOut([carol]).isEmpty)
        #expect(table.rules.timedOut([alice, bob]) == [.abandoned(players: [alice, bob], score: [SeatScore(player: alice, wins: 0), SeatScore(player: bob, wins: 0)])])
        #expect(table.rules.roundResult == .draw)
        #expect(table.rules.view(for: alice).phase == .over)
        #expect(RPSText.sentence(for: .abandoned(players: [alice, bob], score: [])) == "Neither alice nor bob played in time: the match ends without a winner.")
        #expect(RPSText.sentence(for: .outOfTime(player: bob, score: [SeatScore(player: alice, wins: 1), SeatScore(player: bob, wins: 0)]))
            == "bob did not play in time and loses the throw (1–0).")
    }
}
