import Foundation

/// Wins, guesses and best rounds of everyone who has played, across rounds.
///
/// Players are kept by identity, so a player who leaves and comes back keeps the score.
public struct Scoreboard: Sendable, Hashable, Codable {
    /// One player's score.
    public struct Entry: Sendable, Hashable, Codable {
        /// The player, under the latest name.
        public var player: PlayerRef
        /// Rounds won.
        public var wins: Int
        /// Counted guesses over all rounds.
        public var guesses: Int
        /// The fewest guesses this player needed to win a round, once it has won one.
        public var bestRound: Int?

        /// Creates an entry.
        public init(player: PlayerRef, wins: Int = 0, guesses: Int = 0, bestRound: Int? = nil) {
            self.player = player
            self.wins = wins
            self.guesses = guesses
            self.bestRound = bestRound
        }
    }

    private var entries: [UUID: Entry] = [:]

    /// An empty scoreboard.
    public init() {}

    /// How many players have an entry.
    public var count: Int { entries.count }

    /// `player`'s entry, if it has one.
    public func entry(for player: UUID) -> Entry? {
        entries[player]
    }

    /// Counts one guess by `player`.
    public mutating func recordGuess(by player: PlayerRef) {
        entries[player.id, default: Entry(player: player)].guesses += 1
    }

    /// Counts a win by `player`, who needed `guesses` counted guesses this round.
    public mutating func recordWin(by player: PlayerRef, guesses: Int) {
        var entry = entries[player.id, default: Entry(player: player)]
        entry.player = player
        entry.wins += 1
        entry.bestRound = min(entry.bestRound ?? guesses, guesses)
        entries[player.id] = entry
    }

    /// Replaces `entry.player`'s entry with `entry` (a guest taking the host's word for it).
    public mutating func set(_ entry: Entry) {
        entries[entry.player.id] = entry
    }

    /// Shows `player` under its new name from now on.
    public mutating func rename(_ player: PlayerRef) {
        entries[player.id]?.player = player
    }

    /// Every entry, best first: most wins, then the best round, then fewest guesses, then name.
    public var ranked: [Entry] {
        entries.values.sorted(by: Self.ranksBefore)
    }

    /// The best `count` entries, in ranked order.
    public func top(_ count: Int) -> [Entry] {
        Array(ranked.prefix(max(0, count)))
    }

    /// Whether `lhs` ranks above `rhs`.
    public static func ranksBefore(_ lhs: Entry, _ rhs: Entry) -> Bool {
        if lhs.wins != rhs.wins { return lhs.wins > rhs.wins }
        if lhs.bestRound != rhs.bestRound { return (lhs.bestRound ?? .max) < (rhs.bestRound ?? .max) }
        if lhs.guesses != rhs.guesses { return lhs.guesses < rhs.guesses }
        if lhs.player.name != rhs.player.name { return lhs.player.name < rhs.player.name }
        return lhs.player.id.uuidString < rhs.player.id.uuidString
    }
}
