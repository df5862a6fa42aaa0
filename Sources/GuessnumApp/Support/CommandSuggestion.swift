/// The command a mistyped one most likely meant: one or two letters off (a letter missing, extra,
/// wrong, or two swapped), as `hots` for `host`.
public enum CommandSuggestion {
    /// The name among `names` within two edits of `typed`, the nearest first; nil when `typed` is
    /// one of them, an option, or no name is that near.
    public static func closest(to typed: String, among names: [String]) -> String? {
        guard !typed.hasPrefix("-"), !names.contains(typed) else { return nil }
        let nearest = names.map { (name: $0, distance: distance(Array(typed), Array($0))) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= 2, nearest.distance < typed.count else { return nil }
        return nearest.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbouring letters, each counting one.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
