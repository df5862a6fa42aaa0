/// What a line typed by a guest becomes.
public enum Submission: Sendable, Hashable {
    /// A line that is a whole number (with an optional sign) is a guess.
    case guess(Int64)
    /// A whole number too large for any range (beyond 64 bits), as typed; never sent.
    case tooLarge(String)
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
        self = Int64(trimmed).map(Submission.guess) ?? .tooLarge(trimmed)
    }
}
