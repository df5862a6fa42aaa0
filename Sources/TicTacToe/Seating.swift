import Foundation
import Rooms

/// Who takes the board next: the players in the room, the one who has waited longest since they
/// last played first.
///
/// The two at the front play and go to the back, so with three or more everyone gets turns and
/// with two they play every round. A newcomer goes in just before the two who played the latest
/// round, whether it is still going on or not: they have not played at all. Of the two, X goes to the one who was not X last time they
/// played (the one nearer the front when that does not decide it), so X alternates between two
/// players from round to round.
struct Seating: Sendable, Hashable, Codable {
    /// The players, next to play first.
    private(set) var queue: [PlayerRef] = []
    private var lastMark: [UUID: Mark] = [:]
    private var latestPair: Set<UUID> = []

    /// Keeps exactly `players` (in the room now, in join order): those already queued keep their
    /// place (under their current name), the others go to the back in join order.
    mutating func reconcile(with players: [PlayerRef]) {
        let present = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        queue = queue.compactMap { present[$0.id] }
        let queued = Set(queue.map(\.id))
        for player in players where !queued.contains(player.id) { insert(player) }
        lastMark = lastMark.filter { present[$0.key] != nil }
    }

    /// Puts a newcomer at the back, unless they are already queued.
    mutating func add(_ player: PlayerRef) {
        if !queue.contains(where: { $0.id == player.id }) { insert(player) }
    }

    private mutating func insert(_ newcomer: PlayerRef) {
        queue.insert(newcomer, at: queue.firstIndex { latestPair.contains($0.id) } ?? queue.endIndex)
    }

    /// Forgets a player who gave up their seat.
    mutating func remove(_ player: PlayerRef) {
        queue.removeAll { $0.id == player.id }
        lastMark[player.id] = nil
    }

    /// The two who play next, moved to the back; nil with fewer than two players.
    mutating func seatTwo() -> (x: PlayerRef, o: PlayerRef)? {
        guard queue.count >= 2 else { return nil }
        let first = queue.removeFirst(), second = queue.removeFirst()
        queue += [first, second]
        let swap = lastMark[first.id] == .x && lastMark[second.id] != .x
        let (x, o) = swap ? (second, first) : (first, second)
        lastMark[x.id] = .x
        lastMark[o.id] = .o
        latestPair = [x.id, o.id]
        return (x, o)
    }
}
