import Foundation
import Rooms

/// What one tick of guess-the-number changed, for a store's journal between two snapshots: the
/// guesses judged, in order, each to be judged again when the store is read back. A tick in
/// which a round starts or is won, or a player takes another name, is kept as a fresh snapshot
/// instead.
public struct GuessJournalEntry: Sendable, Hashable, Codable {
    /// The players who guessed during the tick, each once, under the name they guessed under.
    public var players: [PlayerRef] = []
    /// Each guess as two numbers: the index of its player in ``players``, then the number guessed.
    public var moves: [Int64] = []

    /// An entry with no guess.
    public init() {}
}

extension GuessRules: Codable {
    private enum CodingKeys: String, CodingKey { case settings, round, scoreboard, reveal }

    /// Rules read back from a store: the round with every count, the scoreboard and the reveal.
    /// Secrets for later rounds come from the system's secure source until ``resume(from:)``
    /// hands these to rules made with the host's own.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(settings: try container.decode(GuessSettings.self, forKey: .settings), secretSource: .secureRandom)
        round = try container.decodeIfPresent(Round.self, forKey: .round)
        scoreboard = try container.decode(Scoreboard.self, forKey: .scoreboard)
        reveal = try container.decodeIfPresent(RoundWon.self, forKey: .reveal)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settings, forKey: .settings)
        try container.encodeIfPresent(round, forKey: .round)
        try container.encode(scoreboard, forKey: .scoreboard)
        try container.encodeIfPresent(reveal, forKey: .reveal)
    }

    /// The tick's guesses; nil (a fresh snapshot) when a round started or was won, or a scoreboard
    /// changed otherwise than by a guess (a player took another name).
    public func journalEntry(for items: [RoomItem<GuessRules>]) -> GuessJournalEntry? {
        var entry = GuessJournalEntry()
        var indices: [PlayerRef: Int64] = [:]
        for item in items {
            switch item {
            case .game(_, .verdict(let line)):
                let index: Int64
                if let known = indices[line.player] {
                    index = known
                } else {
                    index = Int64(entry.players.count)
                    indices[line.player] = index
                    entry.players.append(line.player)
                }
                entry.moves.append(index)
                entry.moves.append(line.guess)
            case .game, .renamed: return nil
            default: continue
            }
        }
        return entry
    }

    /// `{"players":[{"id":…,"name":…},…],"moves":[…]}`, as `JSONEncoder` writes the entry (a
    /// tick of a busy game holds hundreds of guesses).
    public static func journalJSON(of entry: GuessJournalEntry) -> [UInt8]? {
        let capacity = 32 + entry.players.reduce(0) { $0 + 1 + HotPathJSON.maximumBytes(of: $1) }
            + entry.moves.count * (1 + JSONWriter.maximumNumberBytes)
        return JSONWriter.bytes(capacity: capacity) { writer in
            writer.literal(#"{"players":["#)
            for (index, player) in entry.players.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                HotPathJSON.write(player, to: &writer)
            }
            writer.literal(#"],"moves":["#)
            for (index, number) in entry.moves.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.number(number)
            }
            writer.literal("]}")
        }
    }

    /// Judges the entry's guesses again, in order, as the tick did.
    public mutating func replay(_ entry: GuessJournalEntry) {
        var next = entry.moves.startIndex
        while next + 1 < entry.moves.endIndex {
            let (index, guess) = (entry.moves[next], entry.moves[next + 1])
            next += 2
            guard let index = Int(exactly: index), entry.players.indices.contains(index) else { continue }
            _ = try? apply(guess, from: entry.players[index])
        }
    }

    /// Goes on with `kept`'s round, scoreboard and reveal, keeping these rules' settings and
    /// source of secrets (the host's, as it was started now); the round before is not kept.
    public mutating func resume(from kept: GuessRules) {
        round = kept.round
        scoreboard = kept.scoreboard
        reveal = kept.reveal
        previousRound = nil
        prepared = nil
    }

    /// Twenty guesses a second, five at once after a quiet spell: how often a guest may guess.
    public static var moveThrottle: Throttle { Throttle(rate: 20, burst: 5) }
}
