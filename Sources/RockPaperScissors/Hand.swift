/// What a player throws.
///
/// On the wire a hand is `"rock"`, `"paper"` or `"scissors"`.
public enum Hand: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Blunts scissors.
    case rock
    /// Covers rock.
    case paper
    /// Cuts paper.
    case scissors

    /// Whether this hand wins against `other` (a hand never beats itself).
    public func beats(_ other: Hand) -> Bool {
        switch (self, other) {
        case (.rock, .scissors), (.paper, .rock), (.scissors, .paper): true
        default: false
        }
    }

    /// The one byte that names the hand inside a ``HandCommitment``: its initial in ASCII,
    /// `r` (0x72), `p` (0x70) or `s` (0x73).
    public var committedByte: UInt8 { rawValue.utf8.first! }

    public var description: String { rawValue }
}
