/// What the host chooses: how many throws a match is the best of.
///
/// On the wire settings are `{"bestOf": 3}`. Decoding refuses what ``init(bestOf:)`` refuses.
public struct RPSSettings: Sendable, Hashable, Codable {
    /// The most throws a match can need without ties: odd, from 1 to 9. The first to win more
    /// than half of them (2 of 3) wins the match; tied throws do not count.
    public let bestOf: Int

    /// Best of 3.
    public init() {
        bestOf = 3
    }

    /// Best of `bestOf` throws.
    ///
    /// - Throws: ``RPSSettingsError`` unless `bestOf` is odd and from 1 to 9.
    public init(bestOf: Int) throws(RPSSettingsError) {
        guard (1...9).contains(bestOf), bestOf % 2 == 1 else { throw .invalidBestOf(bestOf) }
        self.bestOf = bestOf
    }

    /// The throws a player must win to take the match: more than half of ``bestOf``.
    public var winsNeeded: Int { bestOf / 2 + 1 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(bestOf: container.decode(Int.self, forKey: .bestOf))
    }
}

/// Why settings were refused: a ``code`` to switch on and a sentence for the host.
public struct RPSSettingsError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A short camel-case word (`invalidBestOf`).
    public let code: String
    /// One sentence saying what is wrong and what to choose instead.
    public let message: String

    /// A match length that is even or outside 1–9.
    public static func invalidBestOf(_ bestOf: Int) -> RPSSettingsError {
        RPSSettingsError(code: "invalidBestOf", message: "A match cannot be the best of \(bestOf) throws; choose an odd number from 1 to 9, such as 3.")
    }

    public var description: String { message }
}
