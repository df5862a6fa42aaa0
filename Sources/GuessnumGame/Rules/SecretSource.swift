/// Where a round's secret comes from.
///
/// ``secureRandom`` draws uniformly from the system's cryptographically secure generator (on
/// Linux, `getrandom`), with no modulo bias. ``fixed(_:)`` and ``custom(_:)`` are for tests
/// and demonstrations.
public struct SecretSource: Sendable {
    private let draw: @Sendable (GuessRange) -> Int64
    /// Whether a person (the host) picks the secrets rather than chance: a fair-play check then
    /// proves only that the secret did not change during the round, and players are told so.
    public let isChosenByHost: Bool

    private init(chosenByHost: Bool, _ draw: @escaping @Sendable (GuessRange) -> Int64) {
        self.draw = draw
        isChosenByHost = chosenByHost
    }

    /// A uniform draw from the system's secure random source.
    public static var secureRandom: SecretSource {
        SecretSource(chosenByHost: false) { range in
            var generator = SystemRandomNumberGenerator()
            return Int64.random(in: range.lowerBound...range.upperBound, using: &generator)
        }
    }

    /// Always `secret`; rounds whose range does not hold it cannot start.
    public static func fixed(_ secret: Int64) -> SecretSource {
        SecretSource(chosenByHost: true) { _ in secret }
    }

    /// Whatever `draw` returns for the round's range; it must lie in the range.
    public static func custom(_ draw: @escaping @Sendable (GuessRange) -> Int64) -> SecretSource {
        SecretSource(chosenByHost: true, draw)
    }

    /// A secret for a round over `range`.
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when the source gives a number outside it.
    public func secret(in range: GuessRange) throws(GameError) -> Int64 {
        let secret = draw(range)
        guard range.contains(secret) else { throw .secretOutOfRange(secret, range) }
        return secret
    }
}
