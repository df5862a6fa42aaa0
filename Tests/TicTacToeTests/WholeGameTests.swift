import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("Whole rounds of tic-tac-toe", .timeLimit(.minutes(1)))
struct WholeGameTests {
    let alice = Players.alice, bob = Players.bob

    @Test("X wins on the diagonal: every move is told, then the win, and the round has a winner")
    func xWins() throws {
        var rules = TicTacToeRules()
        #expect(rules.roundResult == nil)
        #expect(rules.startRound(1, players: [alice, bob]) == [.roundStarted(round: 1, x: alice, o: bob)])
        let events = try rules.play([1, 2, 5, 3])
        #expect(rules.roundResult == nil)
        let last = try rules.play([9])
        #expect(events.count == 4)
        #expect(events[0] == .placed(player: alice, mark: .x, square: Square(1)!))
        #expect(events[1] == .placed(player: bob, mark: .o, square: Square(2)!))
        let line = [1, 5, 9].map { Square($0)! }
        #expect(last == [.placed(player: alice, mark: .x, square: Square(9)!), .won(winner: alice, mark: .x, line: line)])
        #expect(rules.roundResult == RoundResult(winners: [alice]))
        #expect(rules.view(for: alice).phase == .won(mark: .x, line: line))
    }

    @Test("O wins down a column")
    func oWins() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        let events = try rules.play([1, 2, 3, 5, 7, 8])
        #expect(events.last == .won(winner: bob, mark: .o, line: [2, 5, 8].map { Square($0)! }))
        #expect(rules.roundResult?.winners == [bob])
    }

    @Test("A full board without a line is a draw")
    func draw() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        // X O X / X O O / O X X
        let events = try rules.play([1, 2, 3, 5, 4, 6, 8, 7, 9])
        #expect(events.suffix(2) == [.placed(player: alice, mark: .x, square: Square(9)!), .drawn])
        #expect(rules.roundResult == .draw)
        #expect(rules.view(for: bob).phase == .drawn)
        #expect(throws: MoveRefusal.roundOver) { try rules.apply(.place(square: 1), from: alice) }
    }

    @Test("A new round starts from an empty board and clears the result")
    func nextRound() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        try rules.play([1, 4, 2, 5, 3])
        _ = rules.startRound(2, players: [alice, bob])
        #expect(rules.roundResult == nil)
        #expect(rules.view(for: nil).board == Board())
        #expect(rules.view(for: nil).round == 2)
    }

    @Test("The game names itself as the room expects")
    func kind() {
        #expect(TicTacToeRules.kind == GameKind(id: "tictactoe", title: "tic-tac-toe", messagePrefix: "tictactoe.v1."))
        #expect(TicTacToeRules(settings: TicTacToeSettings()).settings == TicTacToeSettings())
    }
}
