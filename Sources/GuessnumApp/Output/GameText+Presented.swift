import Foundation
import GuessnumTerminal
import Rooms
import SafeText

/// What a game's presenter writes (``Rooms/GameLine``), as this screen shows it.
extension GameText {
    /// The reader a presenter writes for at this screen: its own player.
    var reader: Reader { Reader(me: me) }

    /// `text` made safe to print, run by run and line by line (a game's line breaks are kept),
    /// and styled as this screen styles.
    func styled(_ text: StyledText) -> String {
        text.runs.map { run in
            var shown = run.text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitized(String($0)) }.joined(separator: "\n")
            switch run.weight {
            case .strong: shown = style.bold(shown)
            case .faint: shown = style.dim(shown)
            case nil: break
            }
            switch run.colour {
            case .success: shown = style.green(shown)
            case .news: shown = style.cyan(shown)
            case .warning: shown = style.yellow(shown)
            case .alarm: shown = style.red(shown)
            case nil: break
            }
            return shown
        }.joined()
    }

    /// `lines` as screen lines: each one that names its event on its own, and the others, taken
    /// together while they follow each other, as `name` with `data`.
    func screenLines(_ lines: [GameLine], as name: String, _ data: any Encodable & Sendable) -> [ScreenLine] {
        var shown: [ScreenLine] = []
        var unnamed: [String] = []
        func flush() {
            guard !unnamed.isEmpty else { return }
            let text = unnamed.joined(separator: "\n")
            shown.append(ScreenLine(text) { JSONLines.line(name, data) })
            unnamed = []
        }
        for line in lines {
            guard let record = line.record else {
                unnamed.append(styled(line.text))
                continue
            }
            flush()
            shown.append(ScreenLine(styled(line.text)) { JSONLines.line(record.name, record.data) })
        }
        flush()
        return shown
    }

    /// One line a game wrote, recorded as it names its event (as a plain message if it names none).
    func screenLine(_ line: GameLine) -> ScreenLine {
        let text = styled(line.text)
        guard let record = line.record else { return ScreenLine(text) }
        return ScreenLine(text) { JSONLines.line(record.name, record.data) }
    }

    /// A game's scores, best first, for `/score` (as JSON, `scoreboard` with `data`).
    func scores(_ lines: [StyledText], data: any Encodable & Sendable) -> ScreenLine {
        ScreenLine(lines.isEmpty ? "No scores yet." : lines.map(styled).joined(separator: "\n")) { JSONLines.line("scoreboard", data) }
    }

    /// A game's final scores (as JSON, `finalScores` with `data`).
    func finalScores(_ lines: [StyledText], data: any Encodable & Sendable) -> ScreenLine {
        ScreenLine(Self.gameOver(lines.isEmpty ? nil : lines.map(styled).joined(separator: "\n"))) { JSONLines.line("finalScores", data) }
    }

    /// A presenter's lines as one text (the lines of a game's command, `/history`).
    func presented(_ lines: [GameLine]) -> String {
        lines.map { styled($0.text) }.joined(separator: "\n")
    }
}
