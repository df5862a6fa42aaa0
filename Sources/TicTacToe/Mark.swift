/// A player's mark: X moves first.
///
/// On the wire a mark is `"X"` or `"O"`.
public enum Mark: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The mark that moves first.
    case x = "X"
    /// The mark that moves second.
    case o = "O"

    /// The other mark.
    public var other: Mark { self == .x ? .o : .x }

    /// "X" or "O".
    public var description: String { rawValue }
}
