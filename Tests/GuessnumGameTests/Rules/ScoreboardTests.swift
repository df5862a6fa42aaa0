import Foundation
import GuessnumGame
import Testing

@Suite("The scoreboard", .timeLimit(.minutes(2)))
struct ScoreboardTests {
    @Test("Wins, guesses and the best round add up across rounds, and ranking puts winners first")
    func scores() {
        let bob = PlayerRef(id: UUID(), name: "bob")
        let carol = PlayerRef(id: UUID(), name: "carol")
        let dave = PlayerRef(id: UUID(), name: "dave")
        var board = Scoreboard()
        for _ in 0..<7 { board.recordGuess(by: bob) }
        board.recordWin(by: bob, guesses: 7)
        for _ in 0..<3 { board.recordGuess(by: bob) }
        board.recordWin(by: bob, guesses: 3)
        for _ in 0..<2 { board.recordGuess(by: carol) }
        board.recordWin(by: carol, guesses: 2)
        board.recordGuess(by: dave)

        #expect(board.entry(for: bob.id) == Scoreboard.Entry(player: bob, wins: 2, guesses: 10, bestRound: 3))
        #expect(board.entry(for: carol.id) == Scoreboard.Entry(player: carol, wins: 1, guesses: 2, bestRound: 2))
        #expect(board.entry(for: dave.id)?.bestRound == nil)
        #expect(board.ranked.map(\.player.name) == ["bob", "carol", "dave"])
        #expect(board.top(2).map(\.player.name) == ["bob", "carol"])
        #expect(board.count == 3)

        let renamed = PlayerRef(id: dave.id, name: "david")
        board.rename(renamed)
        #expect(board.entry(for: dave.id)?.player.name == "david")
    }

    @Test("Equal wins are ranked by the best round, then by fewer guesses")
    func tieBreaks() {
        let a = PlayerRef(id: UUID(), name: "a")
        let b = PlayerRef(id: UUID(), name: "b")
        let c = PlayerRef(id: UUID(), name: "c")
        var board = Scoreboard()
        board.recordWin(by: a, guesses: 5)
        board.recordWin(by: b, guesses: 2)
        board.recordGuess(by: c)
        board.recordWin(by: c, guesses: 5)
        #expect(board.ranked.map(\.player.name) == ["b", "a", "c"])
    }
}
