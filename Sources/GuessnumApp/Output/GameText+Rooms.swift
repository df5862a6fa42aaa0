import Foundation
import GuessnumGame
import GuessnumTerminal
import SafeText

/// What the host and players read of a room of any game, beside what its presenter says.
extension GameText {
    /// One of the room's numbered items (nil for one not shown): the room's own as in
    /// guess-the-number, the game's events told by `presenter` (as JSON, a `game` event with the
    /// game's event); `host` is the host's identity (its chat is marked as the host's).
    func item<Presenter: GamePresenter>(_ item: RoomItem<Presenter.Rules>, presenter: Presenter, host: UUID?) -> ScreenLine? {
        switch item {
        case .joined(let event): return joined(event)
        case .left(let event): return left(event)
        // A player's own away and back lines (in a replay) say what the player knows already.
        case .away(let event): return isMe(event.player) ? nil : away(event)
        case .back(let event): return isMe(event.player) ? nil : back(event)
        case .renamed(let event): return renamed(event)
        case .chat(let chat): return isMe(chat.from) ? nil : self.chat(chat, fromHost: chat.from.id == host)
        case .turnClock(let notice): return turnClock(notice)
        case .scores(let scores): return .event("scores", scores) { "Scores after \(Presenter.roundName) \(scores.round): " + roomScoresLine(scores.entries) }
        case .game(_, let event): return .event("game", event) { presented(presenter.lines(for: event)) }
        case .unknown: return nil
        }
    }

    /// A player the game waits for has little time left: the countdown line.
    func turnClock(_ notice: TurnClockNotice) -> ScreenLine {
        .event("turnClock", notice) {
            isMe(notice.player)
                ? style.bold("\(notice.secondsLeft) s left for your move; after that the game decides for you.")
                : "\(notice.player.displayText) has \(notice.secondsLeft) s left to move."
        }
    }

    /// The scores of a room, for `/score`.
    func roomScores(_ entries: [RoomScores.Entry]) -> ScreenLine {
        .event("scoreboard", entries) {
            guard !entries.isEmpty else { return "No scores yet." }
            return entries.enumerated().map { "\($0.offset + 1). \($0.element.player.displayText): \(Self.count($0.element.wins, "win"))" }
                .joined(separator: "\n")
        }
    }

    /// "alice 2, bob 1".
    private func roomScoresLine(_ entries: [RoomScores.Entry]) -> String {
        entries.isEmpty ? "nobody has won yet." : entries.map { "\($0.player.displayText) \($0.wins)" }.joined(separator: ", ") + "."
    }

    /// Who is in a room, for `/players`: each with their wins, marked when away, and (for the
    /// host) the verification code with them, which they read beside the host's name.
    /// `unlisted`: how many more players are in the room than `players` lists (a big room's
    /// welcome lists only some).
    func roomPlayers(
        _ players: [PlayerRef], scores: [RoomScores.Entry], unlisted: Int = 0, codes: [UUID: String] = [:], isAway: (UUID) -> Bool = { _ in false }
    ) -> ScreenLine {
        let wins = Dictionary(scores.map { ($0.player.id, $0.wins) }, uniquingKeysWith: max)
        let rows = players.map { RoomPlayerLine(player: $0, wins: wins[$0.id] ?? 0, away: isAway($0.id), verificationCode: codes[$0.id]) }
        return .event("players", rows) {
            guard !rows.isEmpty else { return "Nobody has joined yet." }
            let lines = rows.map { row in
                "  \(isMe(row.player) ? "you" : row.player.displayText): \(Self.count(row.wins, "win"))" + (row.away ? " (away, seat held)" : "")
                    + (row.verificationCode.map { ", verification code \($0)" } ?? "")
            }
            return (lines + (unlisted > 0 ? ["  … and \(Self.count(unlisted, "other player"))"] : [])).joined(separator: "\n")
        }
    }

    /// The scores when a room ends, for everyone.
    func roomFinalScores(_ entries: [RoomScores.Entry]) -> ScreenLine {
        .event("finalScores", entries) {
            Self.gameOver(entries.isEmpty ? nil : roomScores(entries).text)
        }
    }

    /// What a presenter wrote (plain text from the game), made safe to print, one line each.
    func presented(_ lines: [String]) -> String {
        lines.map(TerminalText.sanitized).joined(separator: "\n")
    }

    /// The game as this player now sees it, as a presenter tells it (nil when it tells nothing
    /// new); as JSON, a `view` event with the view.
    func view<View: Encodable & Sendable>(_ view: View, lines: [String]) -> ScreenLine? {
        lines.isEmpty ? nil : .event("view", view) { presented(lines) }
    }
}

/// A row of a room's `/players` (as JSON, `players`' data).
private struct RoomPlayerLine: Encodable, Sendable {
    let player: PlayerRef
    let wins: Int
    let away: Bool
    let verificationCode: String?
}

extension GameText {
    /// One of guess-the-number's items as a player reads it (nil for one not shown); `host` is
    /// the host's identity (its chat is marked as the host's).
    func item(_ item: HistoryItem, host: UUID?) -> ScreenLine? {
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
