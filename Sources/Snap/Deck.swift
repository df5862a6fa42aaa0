import Rooms

/// Shuffles the deck for a round, as the settings say.
enum Deck {
    /// The 52 cards in the order round `round` deals them: from the system's generator without
    /// a seed, otherwise the same order for the same seed and round on every run.
    static func shuffled(for round: Int, settings: SnapSettings) -> [Card] {
        guard let seed = settings.seed else {
            var generator = SystemRandomNumberGenerator()
            return shuffled(using: &generator)
        }
        var generator = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: round) &* 0xD1B5_4A32_D192_ED03))
        return shuffled(using: &generator)
    }

    /// The deck in an order drawn from `generator` by a Fisher–Yates shuffle written here, so
    /// that a seed's order does not depend on the standard library's version.
    static func shuffled(using generator: inout some RandomNumberGenerator) -> [Card] {
        var cards = Card.deck
        for index in cards.indices.dropLast().reversed() {
            // The high word of a 64×64-bit product: 0...index, with a bias of at most 52 in 2^64.
            let other = Int(UInt64(index + 1).multipliedFullWidth(by: generator.next()).high)
            cards.swapAt(index, other)
        }
        return cards
    }
}
