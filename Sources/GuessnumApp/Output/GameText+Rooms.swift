import Foundation
import GuessnumGame
import GuessnumTerminal
import SafeText

/// What the host and players read of a room of any game, beside what its presenter says.
extension GameText {
    /// One of the room's numbered items as screen lines (none for one not shown): the room's own,
    /// the game's events told by `presenter` (as JSON, a `game` event with the game's event,
    /// unless the presenter names its own); `host` is the host's identity (its chat is marked as
    /// the host's).
    func item<Presenter: GamePresenter>(_ item: RoomItem<Presenter.Rules>, presenter: inout Presenter, host: UUID?) -> [ScreenLine] {
        if case .game(_, let event) = item { return screenLines(presenter.lines(for: event, to: reader), as: "game", event) }
        if case .renamed(let renamed) = item { presenter.renamed(renamed.player) }
        return roomItem(item, roundName: Presenter.roundName, host: host).map { [$0] } ?? []
    }

    /// One of the room's own items (nil for one not shown, or the game's).
    private func roomItem<Rules: GameRules>(_ item: RoomItem<Rules>, roundName: String, host: UUID?) -> ScreenLine? {
        switch item {
        case .joined(let event): return joined(event)
        case .left(let event): return left(event)
        // A player's own away and back lines (in a replay) say what the player knows already.
        case .away(let event): return isMe(event.player) ? nil : away(event)
        case .back(let event): return isMe(event.player) ? nil : back(event)
        case .renamed(let event): return renamed(event)
        case .chat(let chat): return isMe(chat.from) ? nil : self.chat(chat, fromHost: chat.from.id == host)
        case .turnClock(let notice): return turnClock(notice)
        case .scores(let scores): return .event("scores", scores) { "Scores after \(roundName) \(scores.round): " + roomScoresLine(scores.entries) }
        case .game, .unknown: return nil
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

    /// `/score`: the game's own scores as `presenter` keeps them, or the room's wins; every one
    /// of `players` (those in the room) is listed, with nothing to their name too.
    func scores<Presenter: GamePresenter>(_ entries: [RoomScores.Entry], of players: [PlayerRef], presenter: Presenter) -> ScreenLine {
        let (lines, data) = scoreLines(entries, of: players, presenter: presenter)
        return scores(lines, data: data)
    }

    /// The scores when a game ends, for everyone.
    func finalScores<Presenter: GamePresenter>(_ entries: [RoomScores.Entry], of players: [PlayerRef], presenter: Presenter) -> ScreenLine {
        let (lines, data) = scoreLines(entries, of: players, presenter: presenter)
        return finalScores(lines, data: data)
    }

    /// The lines of the scores, best first, and what a program reads of them.
    private func scoreLines<Presenter: GamePresenter>(
        _ entries: [RoomScores.Entry], of players: [PlayerRef], presenter: Presenter
    ) -> ([StyledText], any Encodable & Sendable) {
        if let own = presenter.scores(of: players, to: reader) { return own }
        let scored = Set(entries.map(\.player.id))
        let all = entries + players.filter { !scored.contains($0.id) }.map { RoomScores.Entry(player: $0, wins: 0) }
        return (all.enumerated().map { StyledText("\($0.offset + 1). \($0.element.player.displayText): \(Self.count($0.element.wins, "win"))") }, all)
    }

    /// "alice 2, bob 1".
    private func roomScoresLine(_ entries: [RoomScores.Entry]) -> String {
        entries.isEmpty ? "nobody has won yet." : entries.map { "\($0.player.displayText) \($0.wins)" }.joined(separator: ", ") + "."
    }

    /// `/players` of a room: each player with their wins, where they stand and the game's own
    /// column, then those `gone`; for the host, the verification code with them and their address.
    func roomPlayers<Presenter: GamePresenter>(
        _ players: [PlayerRef], gone: [PlayerRef] = [], scores: [RoomScores.Entry], presenter: Presenter, unlisted: Int = 0,
        codes: [UUID: String] = [:], addresses: [UUID: String] = [:], isAway: (UUID) -> Bool = { _ in false }
    ) -> ScreenLine {
        let wins = Dictionary(scores.map { ($0.player.id, $0.wins) }, uniquingKeysWith: max)
        let goneIDs = Set(gone.map(\.id))
        let rows = (players + gone).map { player in
            PlayerTableRow(
                player: player, state: goneIDs.contains(player.id) ? "gone" : isAway(player.id) ? "away" : "connected", wins: wins[player.id] ?? 0,
                column: Presenter.playerColumn.map { _ in presenter.playerColumn(for: player) }, code: codes[player.id], address: addresses[player.id])
        }
        return playerTable(rows, column: Presenter.playerColumn, unlisted: unlisted)
    }

    /// What a game's command wrote (plain text from the game), made safe to print, one line each.
    func presented(_ lines: [String]) -> String {
        lines.map(TerminalText.sanitized).joined(separator: "\n")
    }
}
