import Rooms

/// The rules of tic-tac-toe: two players take turns on a 3×3 board while the rest of the room
/// watches; three in a row wins, a full board without one is a draw.
///
/// Each round the two who have waited longest since they last played take the board (see the
/// DocC article); X moves first. With fewer than two players the round waits, and the next
/// ``playerJoined(_:)`` starts it.
///
/// A board player whose link drops keeps the seat for the room's grace period and is not
/// reported here, so their turn simply waits; only when the seat is given up does
/// ``playerLeft(_:)`` forfeit the round to the other player. The player whose turn it is is
/// ``awaited``: one who does not move within the room's turn time loses the round
/// (``timedOut(_:)``), so nobody can stall it.
public struct TicTacToeRules: GameRules, Codable {
    public static let kind = GameKind(id: "tictactoe", title: "tic-tac-toe", messagePrefix: "tictactoe.v1.")

    public let settings: TicTacToeSettings
    public private(set) var roundResult: RoundResult?
    private var seating = Seating()
    private var round = 0
    private var board = Board()
    private var x: PlayerRef?
    private var o: PlayerRef?
    private var phase = TicTacToeView.Phase.waiting

    /// A game before its first round.
    public init(settings: TicTacToeSettings = TicTacToeSettings()) {
        self.settings = settings
    }

    public mutating func startRound(_ number: Int, players: [PlayerRef]) -> [TicTacToeEvent] {
        round = number
        seating.reconcile(with: players)
        return seatPlayers()
    }

    public mutating func playerJoined(_ player: PlayerRef) -> [TicTacToeEvent] {
        seating.add(player)
        guard round > 0, phase == .waiting else { return [] }
        return seatPlayers()
    }

    public mutating func playerLeft(_ player: PlayerRef) -> [TicTacToeEvent] {
        seating.remove(player)
        guard case .playing = phase, let mark = mark(of: player), let winner = seated(mark.other) else { return [] }
        phase = .forfeited(winner: mark.other)
        roundResult = RoundResult(winners: [winner])
        return [.forfeited(leaver: player, winner: winner)]
    }

    /// The player whose turn it is, while a round is played.
    public var awaited: [PlayerRef] {
        guard case .playing(let next) = phase, let mover = seated(next) else { return [] }
        return [mover]
    }

    /// The player whose turn it was did not move in time: the other wins the round.
    public mutating func timedOut(_ players: [PlayerRef]) -> [TicTacToeEvent] {
        guard case .playing(let next) = phase, let late = seated(next), players.contains(where: { $0.id == late.id }),
              let winner = seated(next.other) else { return [] }
        phase = .forfeited(winner: next.other)
        roundResult = RoundResult(winners: [winner])
        return [.outOfTime(player: late, winner: winner)]
    }

    /// Puts the mover's mark on the square; refused with `roundOver`, `waitingForOpponent`,
    /// `watching`, `notYourTurn`, `noSuchSquare` or `squareTaken`, checked in that order.
    public mutating func apply(_ move: TicTacToeMove, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<TicTacToeEvent> {
        guard case .playing(let next) = phase else { throw round > 0 && phase == .waiting ? .waitingForOpponent : .roundOver }
        guard let mark = mark(of: player), let mover = seated(mark) else { throw .watching }
        guard mark == next else { throw .notYourTurn }
        let number = switch move { case .place(let square): square }
        guard let square = Square(number) else { throw .noSuchSquare }
        guard board[square] == nil else { throw .squareTaken }
        board[square] = mark
        var events = [TicTacToeEvent.placed(player: mover, mark: mark, square: square)]
        if let line = board.line(filledBy: mark) {
            phase = .won(mark: mark, line: line)
            roundResult = RoundResult(winners: [mover])
            events.append(.won(winner: mover, mark: mark, line: line))
        } else if board.isFull {
            phase = .drawn
            roundResult = .draw
            events.append(.drawn)
        } else {
            phase = .playing(next: mark.other)
        }
        return MoveOutcome(broadcast: events)
    }

    public func view(for player: PlayerRef?) -> TicTacToeView {
        let role: TicTacToeView.Role = switch player.flatMap(mark(of:)) {
        case .x: .x
        case .o: .o
        case nil: .watching
        }
        return TicTacToeView(round: round, board: board, x: x, o: o, phase: phase, role: role)
    }

    /// A fresh board for two players from the front of the queue, or a wait for a second one.
    private mutating func seatPlayers() -> [TicTacToeEvent] {
        board = Board()
        roundResult = nil
        guard let pair = seating.seatTwo() else {
            (x, o, phase) = (nil, nil, .waiting)
            return [.waiting(round: round, player: seating.queue.first)]
        }
        (x, o, phase) = (pair.x, pair.o, .playing(next: .x))
        return [.roundStarted(round: round, x: pair.x, o: pair.o)]
    }

    private func mark(of player: PlayerRef) -> Mark? {
        if x?.id == player.id { return .x }
        return o?.id == player.id ? .o : nil
    }

    private func seated(_ mark: Mark) -> PlayerRef? { mark == .x ? x : o }
}
