import Foundation
import Multipeer
@testable import Rooms
import Testing
import TicTacToe

/// The scores a room lists (all of them for the host, the best few in a welcome and at a round's
/// end) are built from the players with wins alone, without sorting every player: the same
/// entries in the same order as when they were taken from every player in join order and sorted.
@Suite("A room's scores, from the players with wins alone", .timeLimit(.minutes(1)))
struct RoomScoresOrderTests {
    typealias Table = RoomTable<TicTacToeRules>
    let host = PlayerRef(id: UUID(), name: "alice")

    /// The scores as they were computed before: every player in join order, those with wins,
    /// sorted by wins, then name.
    func reference(_ table: Table) -> [RoomScores.Entry] {
        table.players.compactMap { player in table.wins[player.id].map { RoomScores.Entry(player: player, wins: $0) } }
            .sorted { ($0.wins, $1.player.name) > ($1.wins, $0.player.name) }
    }

    /// A room kept with `count` players (names that share prefixes, cases and letters outside
    /// ASCII, so that ties in wins are broken by names that sort closely), some of them with wins
    /// (ties in wins common), and wins for one identity that has no seat.
    func room(players count: Int, seed: UInt64, scoreboardLimit: Int = RoomConfiguration().scoreboardLimit) -> Table {
        var configuration = RoomConfiguration()
        configuration.scoreboardLimit = scoreboardLimit
        var table = Table(rules: TicTacToeRules(), configuration: configuration, host: host, moveThrottle: Throttle(rate: 20, burst: 5))
        var random = SplitMix64(seed: seed)
        let stems = ["bob", "Bob", "bobby", "Zoë", "zoe", "émile", "Emil", "carol", "c", "😀"]
        var players: [(player: PlayerRef, displayName: String)] = []
        var wins: [UUID: Int] = [:]
        for index in 0..<count {
            let name = "\(stems[Int(random.next() % UInt64(stems.count))]) \(index)"
            let player = PlayerRef(id: UUID(), name: name)
            players.append((player, name))
            if random.next() % 3 != 0 { wins[player.id] = Int(random.next() % 4) + 1 }
        }
        wins[UUID()] = 99  // no such player: never listed
        table.resume(round: 3, lastSequence: 10, gap: 0, players: players, wins: wins, at: .now)
        return table
    }

    @Test("Every score, in the same order as every player's sorted", arguments: [1, 2, 7, 40, 300] as [Int])
    func allScores(players: Int) {
        for seed in 1...5 as ClosedRange<UInt64> {
            let table = room(players: players, seed: seed &* 7919 &+ UInt64(players))
            #expect(table.players.count == players, "every kept player has a seat held")
            let expected = reference(table)
            #expect(!expected.contains { $0.wins == 99 })
            #expect(table.scores == expected)
        }
    }

    @Test("The best few, as the first few of every score", arguments: [0, 1, 3, 20, 41, 500] as [Int])
    func bestScores(limit: Int) {
        for seed in 1...5 as ClosedRange<UInt64> {
            let table = room(players: 120, seed: seed)
            #expect(table.bestScores(limit) == Array(reference(table).prefix(limit)))
        }
    }

    @Test("A welcome lists the best scores up to the scoreboard's limit, as before")
    func welcomeScores() {
        for limit in [0, 5, 20] {
            let table = room(players: 200, seed: UInt64(limit) + 11, scoreboardLimit: limit)
            let someone = table.players[17]
            #expect(table.welcome(for: someone).scores == Array(reference(table).prefix(limit)))
        }
    }
}
