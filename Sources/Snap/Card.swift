/// One card of the standard 52-card deck: a ``Rank`` and a ``Suit``.
///
/// A card reads as its rank and its suit's symbol: `7♥`, `10♠`, `Q♦`, `A♣`. On the wire it is
/// that text, `"7♥"`; anything else fails to decode.
public struct Card: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Two to ace.
    public let rank: Rank
    /// Spades, hearts, diamonds or clubs.
    public let suit: Suit

    /// The card of `rank` in `suit`.
    public init(_ rank: Rank, _ suit: Suit) {
        self.rank = rank
        self.suit = suit
    }

    /// The card that `text` names (`"7♥"`, `"10♠"`), or nil when it names none.
    public init?(_ text: String) {
        guard let symbol = text.last, let suit = Suit.allCases.first(where: { $0.symbol == symbol }),
              let rank = Rank.allCases.first(where: { $0.symbol == String(text.dropLast()) }) else { return nil }
        self.init(rank, suit)
    }

    /// All 52 cards, spades first, each suit from two to ace.
    public static let deck: [Card] = Suit.allCases.flatMap { suit in Rank.allCases.map { Card($0, suit) } }

    /// The rank's symbol and the suit's: "7♥", "10♠", "Q♦", "A♣".
    public var description: String { rank.symbol + String(suit.symbol) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let card = Card(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a card"))
        }
        self = card
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
