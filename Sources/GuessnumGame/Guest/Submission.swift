/// What a line typed by a guest becomes.
public enum Submission: Sendable, Hashable {
    /// A line that is a whole number (with an optional sign) is a guess. Numbers beyond 64
    /// bits are clamped, and the host answers them "out of range".
    case guess(Int64)
    /// Any other line is chat.
    case chat(String)
    /// An empty or blank line is nothing.
    case ignored

    /// Reads `line`.
    public init(line: String) {
        let trimmed = line.trimmingWhitespace
        if trimmed.isEmpty {
            self = .ignored
            return
        }
        let scalars = Array(trimmed.unicodeScalars)
        let signed = scalars.first == "-" || scalars.first == "+"
        let digits = scalars.dropFirst(signed ? 1 : 0)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            self = .chat(line)
            return
        }
        if let number = Int64(trimmed) {
            self = .guess(number)
        } else {
            self = .guess(scalars.first == "-" ? .min : .max)
        }
    }
}
