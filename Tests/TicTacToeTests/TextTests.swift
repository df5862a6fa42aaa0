import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("Tic-tac-toe as terminal text", .timeLimit(.minutes(1)))
struct TextTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol

    @Test("The board shows marks, and numbers on the empty squares")
    func board() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        #expect(TicTacToeText.lines(of: Board()) == [" 1 | 2 | 3", "---+---+---", " 4 | 5 | 6", "---+---+---", " 7 | 8 | 9"])
        try rules.play([1, 3, 5])
        #expect(TicTacToeText.lines(of: rules.view(for: nil).board) == [
            " X | 2 | O", "---+---+---", " 4 | X | 6", "---+---+---", " 7 | 8 | 9",
        ])
    }

    @Test("Each event is one sentence")
    func sentences() {
        let cases: [(TicTacToeEvent, String)] = [
            (.roundStarted(round: 2, x: alice, o: bob), "Round 2: alice (X) against bob (O); X moves first."),
            (.waiting(round: 1, player: alice), "Round 1 waits for a second player to join alice."),
            (.waiting(round: 1, player: nil), "Round 1 waits for two players."),
            (.placed(player: bob, mark: .x, square: Square(5)!), "bob (X) took 5."),
            (.won(winner: alice, mark: .x, line: [1, 5, 9].map { Square($0)! }), "alice wins with 1-5-9."),
            (.drawn, "A draw."),
            (.forfeited(leaver: bob, winner: alice), "bob gave up the seat: alice wins."),
        ]
        for (event, sentence) in cases { #expect(TicTacToeText.sentence(for: event) == sentence) }
    }

    @Test("Names cannot act on the terminal")
    func hostileName() {
        let eve = PlayerRef(id: UUID(), name: "eve\u{1B}[2J\n")
        let sentence = TicTacToeText.sentence(for: .placed(player: eve, mark: .o, square: Square(1)!))
        #expect(!sentence.contains("\u{1B}") && !sentence.contains("\n"))
        #expect(sentence.hasPrefix("eve\u{FFFD}"))
    }

    @Test("The status line says whose turn it is, to each viewer")
    func status() throws {
        var rules = TicTacToeRules()
        #expect(TicTacToeText.status(of: rules.view(for: alice)) == "No round has started yet.")
        _ = rules.startRound(1, players: [alice])
        #expect(TicTacToeText.status(of: rules.view(for: alice)) == "Round 1 waits for a second player.")
        _ = rules.playerJoined(bob)
        _ = rules.playerJoined(carol)
        let heading = "Round 1, alice (X) against bob (O): "
        #expect(TicTacToeText.status(of: rules.view(for: alice)) == heading + "your turn (X).")
        #expect(TicTacToeText.status(of: rules.view(for: bob)) == heading + "alice's turn (X).")
        #expect(TicTacToeText.status(of: rules.view(for: carol)) == heading + "alice's turn (X). You are watching.")
        try rules.play([1, 4, 2, 5, 3])
        #expect(TicTacToeText.status(of: rules.view(for: bob)) == heading + "alice won with 1-2-3.")
        _ = rules.startRound(2, players: [alice, bob, carol])
        _ = rules.playerLeft(alice)
        #expect(TicTacToeText.status(of: rules.view(for: bob)) == "Round 2, carol (X) against alice (O): carol won by forfeit. You are watching.")
    }

    @Test("A draw in the status line")
    func drawStatus() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        try rules.play([1, 2, 3, 5, 4, 6, 8, 7, 9])
        #expect(TicTacToeText.status(of: rules.view(for: alice)) == "Round 1, alice (X) against bob (O): a draw.")
    }
}
