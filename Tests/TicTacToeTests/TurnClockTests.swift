import Rooms
import Testing
import TicTacToe

/// The player whose turn it is is waited for; one who does not move in time loses the round.
@Suite("Tic-tac-toe against the turn clock", .timeLimit(.minutes(1)))
struct TicTacToeTurnClockTests {
    @Test("The mover is awaited, turn by turn; out of time, the other player wins the round, and the late one's name is said")
    func outOfTime() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [Players.alice, Players.bob])
        let (x, o) = rules.pair
        let (first, second) = (try #require(x), try #require(o))
        #expect(rules.awaited == [first])
        try rules.play([5])
        #expect(rules.awaited == [second])
        #expect(rules.timedOut([first]).isEmpty, "not the mover: nothing is decided")
        #expect(rules.timedOut([second]) == [.outOfTime(player: second, winner: first)])
        #expect(rules.roundResult == RoundResult(winners: [first]))
        #expect(rules.awaited.isEmpty)
        #expect(TicTacToeText.sentence(for: .outOfTime(player: second, winner: first)) == "\(second.name) did not move in time: \(first.name) wins.")
    }

    @Test("A round waiting for a second player waits for nobody")
    func waitingRound() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [Players.alice])
        #expect(rules.awaited.isEmpty)
    }
}
