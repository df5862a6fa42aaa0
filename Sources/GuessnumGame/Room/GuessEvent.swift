/// What happens in a game of guess-the-number, as the room numbers and broadcasts it: each
/// carries the message its wire has always carried (``GuessCodec``). The room gives each its
/// sequence number; until then the message's own `sequence` is 0.
public enum GuessEvent: Sendable, Hashable, Codable {
    /// A guess judged.
    case verdict(JudgedGuess)
    /// A round started, committed to its secret.
    case roundStarted(RoundStarted)
    /// A round ended, its secret revealed.
    case roundWon(RoundWon)
    /// The top of the scoreboard after a round was won.
    case scoreboard(ScoreboardUpdate)

    /// The event as item `sequence` of the room's broadcast.
    func numbered(_ sequence: UInt64) -> HistoryItem {
        switch self {
        case .verdict(var line):
            line.sequence = sequence
            return .verdict(line)
        case .roundStarted(var started):
            started.sequence = sequence
            return .roundStarted(started)
        case .roundWon(var won):
            won.sequence = sequence
            return .roundWon(won)
        case .scoreboard(var board):
            board.sequence = sequence
            return .scoreboard(board)
        }
    }
}
