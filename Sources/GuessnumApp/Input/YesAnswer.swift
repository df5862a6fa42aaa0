import Foundation

/// What counts as yes to a question the program asks with `[y/N]` (or `[y/n]`).
enum YesAnswer {
    /// Whether `line`, as typed, says yes: `y` or `yes` in any case, spaces around ignored;
    /// anything else (an empty line, the end of input) is no.
    static func isYes(_ line: String?) -> Bool {
        ["y", "yes"].contains(line?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }
}
