import Rooms

extension RoomItem where Rules == GuessRules {
    /// The item as guess-the-number's wire carries it.
    var historyItem: HistoryItem {
        switch self {
        case .joined(let item): .joined(item)
        case .left(let item): .left(item)
        case .away(let item): .away(item)
        case .back(let item): .back(item)
        case .renamed(let item): .renamed(item)
        case .chat(let item): .chat(item)
        case .game(let sequence, let event): event.numbered(sequence)
        // Not broadcast in this game (``GuessRules/broadcastsOwnScores``): its scoreboard is an event.
        case .scores: .unknown(type: RoomItem<GuessRules>.scoresType)
        // Nobody is waited for in this game (``GuessRules/awaited`` is empty): never made.
        case .turnClock: .unknown(type: TurnClockNotice.messageType)
        case .unknown(let type): .unknown(type: type)
        }
    }

    /// The room's item of a guess-the-number history item.
    init(_ item: HistoryItem) {
        switch item {
        case .joined(let item): self = .joined(item)
        case .left(let item): self = .left(item)
        case .away(let item): self = .away(item)
        case .back(let item): self = .back(item)
        case .renamed(let item): self = .renamed(item)
        case .chat(let item): self = .chat(item)
        case .verdict(let line): self = .game(sequence: line.sequence, event: .verdict(line))
        case .roundStarted(let started): self = .game(sequence: started.sequence, event: .roundStarted(started))
        case .roundWon(let won): self = .game(sequence: won.sequence, event: .roundWon(won))
        case .scoreboard(let board): self = .game(sequence: board.sequence, event: .scoreboard(board))
        case .unknown(let type): self = .unknown(type: type)
        }
    }
}
