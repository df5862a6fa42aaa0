import Rooms

/// Tic-tac-toe as text for a terminal: pure functions, no I/O. Names go through
/// `PlayerRef.displayText`, so nothing a player typed can act on the terminal.
public enum TicTacToeText {
    /// The board as five lines, the empty squares showing their numbers:
    ///
    /// ```
    ///  X | 2 | O
    /// ---+---+---
    ///  4 | X | 6
    /// ---+---+---
    ///  7 | 8 | 9
    /// ```
    public static func lines(of board: Board) -> [String] {
        let rows = [0, 3, 6].map { start in
            " " + Square.all[start..<start + 3].map { board[$0]?.rawValue ?? $0.description }.joined(separator: " | ")
        }
        return [rows[0], divider, rows[1], divider, rows[2]]
    }

    /// One sentence for an event: "bob (X) took 5.", "alice wins with 1-5-9.", "A draw.".
    public static func sentence(for event: TicTacToeEvent) -> String {
        switch event {
        case .roundStarted(let round, let x, let o):
            "Round \(round): \(x.displayText) (X) against \(o.displayText) (O); X moves first."
        case .waiting(let round, let player?):
            "Round \(round) waits for a second player to join \(player.displayText)."
        case .waiting(let round, nil):
            "Round \(round) waits for two players."
        case .placed(let player, let mark, let square):
            "\(player.displayText) (\(mark)) took \(square)."
        case .won(let winner, _, let line):
            "\(winner.displayText) wins with \(text(of: line))."
        case .drawn:
            "A draw."
        case .forfeited(let leaver, let winner):
            "\(leaver.displayText) gave up the seat: \(winner.displayText) wins."
        case .outOfTime(let player, let winner):
            "\(player.displayText) did not move in time: \(winner.displayText) wins."
        }
    }

    /// One line saying where the round stands for the viewer:
    /// "Round 2, alice (X) against bob (O): your turn (O)."
    public static func status(of view: TicTacToeView) -> String {
        guard let x = view.x, let o = view.o else {
            return view.round == 0 ? "No round has started yet." : "Round \(view.round) waits for a second player."
        }
        let heading = "Round \(view.round), \(x.displayText) (X) against \(o.displayText) (O): "
        let state = switch view.phase {
        case .waiting: "waiting."
        case .playing(let next) where view.isMyTurn: "your turn (\(next))."
        case .playing(let next): "\(view.player(next)?.displayText ?? next.rawValue)'s turn (\(next))."
        case .won(let mark, let line): "\(view.player(mark)?.displayText ?? mark.rawValue) won with \(text(of: line))."
        case .drawn: "a draw."
        case .forfeited(let winner): "\(view.player(winner)?.displayText ?? winner.rawValue) won by forfeit."
        }
        return heading + state + (view.role == .watching ? " You are watching." : "")
    }

    private static let divider = "---+---+---"

    private static func text(of line: [Square]) -> String {
        line.map(\.description).joined(separator: "-")
    }
}
