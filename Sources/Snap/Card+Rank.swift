extension Card {
    /// A card's rank, two to ace. Snap matches cards by rank alone.
    ///
    /// On the wire a rank is its number: 2 to 10, then 11 for a jack, 12 for a queen, 13 for a
    /// king and 14 for an ace; anything else fails to decode.
    public enum Rank: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// 2.
        case two = 2
        /// 3.
        case three
        /// 4.
        case four
        /// 5.
        case five
        /// 6.
        case six
        /// 7.
        case seven
        /// 8.
        case eight
        /// 9.
        case nine
        /// 10.
        case ten
        /// J.
        case jack
        /// Q.
        case queen
        /// K.
        case king
        /// A.
        case ace

        /// How a card shows the rank: "2" to "10", "J", "Q", "K", "A".
        public var symbol: String {
            switch self {
            case .jack: "J"
            case .queen: "Q"
            case .king: "K"
            case .ace: "A"
            default: String(rawValue)
            }
        }

        /// The rank's cards in a sentence: "7s", "10s", "jacks", "queens", "kings", "aces".
        public var plural: String {
            switch self {
            case .jack: "jacks"
            case .queen: "queens"
            case .king: "kings"
            case .ace: "aces"
            default: symbol + "s"
            }
        }

        /// The symbol, "7" or "Q".
        public var description: String { symbol }
    }
}
