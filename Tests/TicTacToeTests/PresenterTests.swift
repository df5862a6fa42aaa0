import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("The terminal presenter: a square's number is a move, the board drawn when it changes", .timeLimit(.minutes(1)))
struct PresenterTests {
    @Test("1 to 9 play that square; another number is answered; words are chat")
    func typing() {
        var presenter = TicTacToePresenter()
        for square in 1...9 {
            guard case .play(.place(let played)) = presenter.input(String(square), in: nil) else { Issue.record("\(square) not played"); return }
            #expect(played == square)
        }
        guard case .answer(let sentence) = presenter.input("10", in: nil) else { Issue.record("10 was played"); return }
        #expect(sentence == "There is no square 10: the squares are 1 to 9.")
        guard case .chat = presenter.input("good game", in: nil) else { Issue.record("chat was played"); return }
    }

    @Test("The board is drawn when the round starts and after each move; an unchanged view shows nothing")
    func boardWhenChanged() throws {
        var presenter = TicTacToePresenter()
        var rules = TicTacToeRules()
        let waiting = rules.view(for: Players.alice)
        _ = rules.startRound(1, players: [Players.alice, Players.bob])
        let started = rules.view(for: Players.alice)
        let first = presenter.plainLines(for: started, before: waiting)
        #expect(first.count == 6 && first[0] == " 1 | 2 | 3", "the board and the status: \(first)")
        #expect(first.last?.hasSuffix("your turn (X).") == true, "\(first)")
        #expect(presenter.plainLines(for: started, before: started).isEmpty)
        try rules.play([5])
        let after = presenter.plainLines(for: rules.view(for: Players.alice), before: started)
        #expect(after.contains(" 4 | X | 6"), "\(after)")
        #expect(after.last?.hasSuffix("bob's turn (O).") == true, "\(after)")
    }

    @Test("/board shows the board and whose turn it is")
    func boardCommand() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [Players.alice, Players.bob])
        try rules.play([5])
        let board = GameCommand.typed("/board", among: TicTacToePresenter.commands)
        #expect(board?.lines(rules.view(for: Players.bob)).contains(" 4 | X | 6") == true)
        #expect(board?.lines(rules.view(for: Players.bob)).last?.hasSuffix("your turn (O).") == true)
        #expect(GameCommand.typed("/boards", among: TicTacToePresenter.commands) == nil)
    }
}
