extension Card {
    /// A card's suit. Snap never compares suits; they only tell the cards of a rank apart.
    ///
    /// On the wire a suit is its name: `"spades"`, `"hearts"`, `"diamonds"` or `"clubs"`.
    public enum Suit: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// ♠.
        case spades
        /// ♥.
        case hearts
        /// ♦.
        case diamonds
        /// ♣.
        case clubs

        /// How a card shows the suit: ♠, ♥, ♦ or ♣.
        public var symbol: Character {
            switch self {
            case .spades: "♠"
            case .hearts: "♥"
            case .diamonds: "♦"
            case .clubs: "♣"
            }
        }

        /// The symbol, "♥".
        public var description: String { String(symbol) }
    }
}
