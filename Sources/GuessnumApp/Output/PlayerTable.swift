import Foundation
import GuessnumTerminal
import Rooms
import SafeText

/// One row of `/players`, whatever the game: a player, where they stand, their wins, the
/// game's own column (guess-the-number's guesses this round) and, for the host, the verification
/// code with them and the address their link came from.
struct PlayerTableRow: Sendable {
    let player: PlayerRef
    /// "connected", "away"… (``GuessnumGame/PlayerRow/Presence``'s words).
    let state: String
    let wins: Int
    /// The game's column, if it has one.
    var column: String?
    var code: String?
    var address: String?
}

extension GameText {
    /// The `/players` table of every game: name, state, wins, the game's column titled
    /// `column` (if any) and, when any row has one, the verification code; `unlisted` more players
    /// are counted below it (a big room's welcome lists only some). Rows whose names look alike
    /// (a player gone and another under the same name) are told apart by the start of each one's
    /// key, and the address it came from when known.
    func playerTable(_ rows: [PlayerTableRow], column: String?, unlisted: Int = 0) -> ScreenLine {
        .event("players", rows.map { PlayerTableLine(row: $0, column: column) }) {
            guard !rows.isEmpty else { return "No players yet." }
            var alike: [String: Int] = [:]
            for row in rows { alike[ConfusableSkeleton.of(row.player.name), default: 0] += 1 }
            let names = Dictionary(rows.map { row in
                let name = TerminalText.sanitized(row.player.name)
                guard alike[ConfusableSkeleton.of(row.player.name), default: 0] > 1 else { return (row.player.id, name) }
                return (row.player.id, "\(name) (\(Self.whereFrom(row.player.id, address: row.address)))")
            }, uniquingKeysWith: { first, _ in first })
            let width = max("name".count, names.values.map(\.count).max() ?? 0)
            let showsCodes = rows.contains { $0.code != nil }
            var header = "\(pad("name", width))  state       wins"
            if let column { header += "  " + column }
            if showsCodes { header += "  code" }
            var lines = [header.trimmingTrailingSpaces]
            // By name; rows of one name in the order they appeared.
            for row in rows.enumerated().sorted(by: { ($0.element.player.name, $0.offset) < ($1.element.player.name, $1.offset) }).map(\.element) {
                var line = "\(pad(names[row.player.id] ?? "", width))  \(pad(row.state, 10))  \(pad(String(row.wins), 4))"
                if let column { line += "  " + (showsCodes ? pad(row.column ?? "", column.count) : row.column ?? "") }
                if showsCodes { line += "  " + (row.code ?? "") }
                lines.append(line.trimmingTrailingSpaces)
            }
            if unlisted > 0 { lines.append("… and \(Self.count(unlisted, "other player"))") }
            return lines.joined(separator: "\n")
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// A row of `/players` as a program reads it: the game's column under its title in camel case
/// (`guessesThisRound`), a number when it is one.
private struct PlayerTableLine: Encodable {
    let row: PlayerTableRow
    let column: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(row.player.name, forKey: Key("name"))
        try container.encode(row.state, forKey: Key("state"))
        try container.encode(row.wins, forKey: Key("wins"))
        if let column, let value = row.column {
            let words = column.split(separator: " ")
            let key = words.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.capitalized }.joined()
            if let number = Int(value) { try container.encode(number, forKey: Key(key)) } else { try container.encode(value, forKey: Key(key)) }
        }
        try container.encodeIfPresent(row.code, forKey: Key("verificationCode"))
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
