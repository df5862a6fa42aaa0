import Foundation

/// The data files in `Resources/`, bundled with the program.
public enum GuessnumResources {
    /// Display names for players who give none: one a line, `#` starts a comment.
    public static var playerNames: [String] {
        guard let url = Bundle.module.url(forResource: "player-names", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
