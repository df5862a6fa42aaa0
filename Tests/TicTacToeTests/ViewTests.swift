import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("What each person sees", .timeLimit(.minutes(1)))
struct ViewTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol

    @Test("Before the first round: round 0, empty board, nobody seated, everyone watching")
    func beforeFirst() {
        let view = TicTacToeRules().view(for: alice)
        #expect(view.round == 0 && view.board == Board() && view.x == nil && view.o == nil)
        #expect(view.phase == .waiting && view.role == .watching && view.turn == nil && !view.isMyTurn)
    }

    @Test("After every move, X, O and a watcher see the same game and only their own role")
    func sameGameOwnRole() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(3, players: [alice, bob, carol])
        for (index, square) in [5, 1, 9, 3].enumerated() {
            let x = rules.view(for: alice), o = rules.view(for: bob), watcher = rules.view(for: carol)
            #expect((x.role, o.role, watcher.role) == (.x, .o, .watching))
            #expect(rules.view(for: nil) == watcher)
            for view in [x, o] {
                var same = view
                same.role = .watching
                #expect(same == watcher)
            }
            let next: Mark = index.isMultiple(of: 2) ? .x : .o
            #expect(watcher.phase == .playing(next: next))
            #expect(watcher.turn == (next == .x ? alice : bob))
            #expect(x.isMyTurn == (next == .x) && o.isMyTurn == (next == .o) && !watcher.isMyTurn)
            #expect(watcher.round == 3 && watcher.x == alice && watcher.o == bob)
            try rules.play([square])
        }
        let board = rules.view(for: carol).board
        #expect(board[Square(5)!] == .x && board[Square(1)!] == .o && board[Square(9)!] == .x && board[Square(3)!] == .o)
        #expect(board[Square(2)!] == nil)
        #expect(!board.isFull)
    }
}
