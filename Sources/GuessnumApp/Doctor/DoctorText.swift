import GuessnumTerminal

/// How `guessnum doctor` prints: one line per check (“✓ avahi-daemon: running (version 0.8)”,
/// “✗ avahi-daemon: not running — start it: sudo systemctl start avahi-daemon”) and a summary,
/// or with `--json` one JSON object a line, as the other commands' `--json` (``JSONLines``):
/// `{"event":"check","data":{…}}` for each check and `{"event":"summary","data":{…}}` last.
public struct DoctorText: Sendable {
    let style: TextStyle
    let json: Bool

    /// Text in `style` (plain with `json`).
    public init(style: TextStyle, json: Bool) {
        self.style = json ? .plain : style
        self.json = json
    }

    /// The line for `check`.
    public func line(_ check: DoctorCheck) -> String {
        if json { return JSONLines.line("check", check) }
        let mark: String
        switch check.status {
        case .ok: mark = style.green("✓")
        case .warning: mark = style.yellow("!")
        case .failed: mark = style.red("✗")
        case .skipped: mark = style.dim("–")
        }
        let finding = check.status == .skipped ? "skipped (\(check.finding))" : check.finding
        return "\(mark) \(style.bold(check.title)): \(finding)" + (check.fix.map { " — \($0)" } ?? "")
    }

    /// The last line, for `report`.
    public func summary(_ report: DoctorReport) -> String {
        guard json else { return report.summary }
        return JSONLines.line(
            "summary",
            SummaryLine(
                passed: report.checks.filter { $0.status == .ok }.count, warnings: report.warnings.count,
                failed: report.failures.count, skipped: report.skipped.map(\.id), text: report.summary))
    }

    private struct SummaryLine: Encodable {
        let passed: Int
        let warnings: Int
        let failed: Int
        let skipped: [String]
        let text: String
    }
}
