/// What the host chooses for snap: whether the deck is shuffled from a seed.
///
/// On the wire the settings are `{}` without a seed and `{"seed": 42}` with one.
public struct SnapSettings: Sendable, Hashable, Codable {
    /// Nil (the default): every round's deck is shuffled with the system's random number
    /// generator. A number: every round's deck is shuffled from it and the round's number, the
    /// same way on every run — for demos and tests. The seeded generator is not fit for
    /// secrets: anyone who knows the seed, or sees a few cards, can work out the deal.
    public var seed: UInt64?

    /// Settings that shuffle from `seed`, or from the system's generator when it is nil.
    public init(seed: UInt64? = nil) {
        self.seed = seed
    }
}
