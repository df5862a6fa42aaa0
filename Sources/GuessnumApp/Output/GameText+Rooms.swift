import Foundation
import GuessnumGame
import SafeText

/// What the host and players read of a room of any game, beside what its presenter says.
extension GameText {
    /// One of the room's numbered items as a line (nil for one not shown), the game's events
    /// told by `presenter`; `host` is the host's identity (its chat is marked as the host's).
    func item<Presenter: GamePresenter>(_ item: RoomItem<Presenter.Rules>, presenter: Presenter, host: UUID?) -> [String] {
        if json { return [JSONLines.line("item", item)] }
        switch item {
        case .joined(let event): return [joined(event)]
        case .left(let event): return [left(event)]
        // A player's own away and back lines (in a replay) say what the player knows already.
        case .away(let event): return isMe(event.player) ? [] : [away(event)]
        case .back(let event): return isMe(event.player) ? [] : [back(event)]
        case .renamed(let event): return [renamed(event)]
        case .chat(let chat): return isMe(chat.from) ? [] : [self.chat(chat, fromHost: chat.from.id == host)]
        case .scores(let scores): return ["Scores after round \(scores.round): " + roomScoresLine(scores.entries)]
        case .game(_, let event): return presenter.lines(for: event)
        case .unknown: return []
        }
    }

    /// The scores of a room, for `/score`.
    func roomScores(_ entries: [RoomScores.Entry]) -> String {
        if json { return JSONLines.line("scoreboard", entries) }
        guard !entries.isEmpty else { return "No scores yet." }
        return entries.enumerated().map { "\($0.offset + 1). \($0.element.player.displayText): \(Self.count($0.element.wins, "win"))" }
            .joined(separator: "\n")
    }

    /// "alice 2, bob 1".
    private func roomScoresLine(_ entries: [RoomScores.Entry]) -> String {
        entries.isEmpty ? "nobody has won yet." : entries.map { "\($0.player.displayText) \($0.wins)" }.joined(separator: ", ") + "."
    }

    /// Who is in a room, for `/players`: each with their wins, marked when away, and (for the
    /// host) the verification code with them, which they read beside the host's name.
    func roomPlayers(_ players: [PlayerRef], scores: [RoomScores.Entry], codes: [UUID: String] = [:], isAway: (UUID) -> Bool = { _ in false }) -> String {
        if json { return JSONLines.line("players", players) }
        guard !players.isEmpty else { return "Nobody has joined yet." }
        let wins = Dictionary(scores.map { ($0.player.id, $0.wins) }, uniquingKeysWith: max)
        return players.map { player in
            "  \(isMe(player) ? "you" : player.displayText): \(Self.count(wins[player.id] ?? 0, "win"))" + (isAway(player.id) ? " (away, seat held)" : "")
                + (codes[player.id].map { ", verification code \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    /// The scores when a room ends, for everyone.
    func roomFinalScores(_ entries: [RoomScores.Entry]) -> String {
        if json { return JSONLines.line("finalScores", entries) }
        return entries.isEmpty ? "The game is over. Nobody scored." : "The game is over. Final scores:\n" + roomScores(entries)
    }

    /// Lines a presenter wrote, as the screen shows them (as JSON, one event line each).
    func presented(_ lines: [String], as name: String = "game") -> [String] {
        json ? lines.map { JSONLines.line(name, $0) } : lines.map(TerminalText.sanitized)
    }
}

extension GameText {
    /// One of guess-the-number's items as a player reads it (nil for one not shown); `host` is
    /// the host's identity (its chat is marked as the host's).
    func item(_ item: HistoryItem, host: UUID?) -> String? {
        switch item {
        case .verdict(let judged): verdict(judged)
        case .joined(let event): joined(event)
        case .left(let event): left(event)
        // A player's own away and back lines (in a replay) say what the player knows already.
        case .away(let event): isMe(event.player) ? nil : away(event)
        case .back(let event): isMe(event.player) ? nil : back(event)
        case .renamed(let event): renamed(event)
        case .chat(let chat): isMe(chat.from) ? nil : self.chat(chat, fromHost: chat.from.id == host)
        case .roundWon(let event): roundWon(event)
        case .roundStarted(let event): roundStarted(event)
        case .scoreboard, .unknown: nil
        }
    }
}
