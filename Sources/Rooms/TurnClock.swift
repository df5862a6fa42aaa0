import Foundation

/// The room's turn clocks, as a value: each player the game waits for (``GameRules/awaited``)
/// has ``limit`` to move from the moment the game began waiting for them, or from their last
/// accepted move; a warning is due once ``warningLeft`` remains, and then the game decides for
/// them (``GameRules/timedOut(_:)``). Without a limit nothing is timed.
///
/// Every operation costs a look at the players waited for (one or two in a game of turns).
@usableFromInline package struct TurnClock: Sendable {
    /// How long a player waited for has; nil: no clock.
    package let limit: Duration?
    /// When each player waited for began to be waited for.
    private var since: [UUID: ContinuousClock.Instant] = [:]
    /// Those already warned in their current wait.
    private var warned: Set<UUID> = []

    /// How much time is left when a player is warned (10 s, or half a limit under 20 s).
    package var warningLeft: Duration? {
        limit.map { $0 >= .seconds(20) ? .seconds(10) : $0 / 2 }
    }

    /// Clocks of `limit` (nil: none).
    package init(limit: Duration?) {
        self.limit = limit
    }

    /// Starts the clock of every player in `awaited` that has none, at `now`, and stops those
    /// of the players no longer waited for.
    @usableFromInline package mutating func sync(awaited: [PlayerRef], at now: ContinuousClock.Instant) {
        // A game that waits for nobody (guess-the-number) costs nothing here on each move.
        guard limit != nil, !(awaited.isEmpty && since.isEmpty) else { return }
        let ids = Set(awaited.map(\.id))
        if since.keys.contains(where: { !ids.contains($0) }) {
            since = since.filter { ids.contains($0.key) }
            warned.formIntersection(ids)
        }
        for id in ids where since[id] == nil { since[id] = now }
    }

    /// Player `id` moved: their wait, if the game still waits for them, starts again.
    @usableFromInline package mutating func moved(_ id: UUID) {
        // A game that waits for nobody (guess-the-number) hashes nothing here on each move.
        if !since.isEmpty { since[id] = nil }
        if !warned.isEmpty { warned.remove(id) }
    }

    /// The players of `awaited` to warn now, each with the whole seconds left; each is warned
    /// once per wait.
    package mutating func warnings(among awaited: [PlayerRef], at now: ContinuousClock.Instant) -> [(player: PlayerRef, secondsLeft: Int)] {
        guard let limit, let warningLeft else { return [] }
        var due: [(PlayerRef, Int)] = []
        for player in awaited where !warned.contains(player.id) {
            guard let start = since[player.id], now - start >= limit - warningLeft else { continue }
            warned.insert(player.id)
            let left = limit - (now - start)
            due.append((player, max(1, Int((left / .seconds(1)).rounded(.up)))))
        }
        return due
    }

    /// The players of `awaited` whose time is up at `now`.
    package func expired(among awaited: [PlayerRef], at now: ContinuousClock.Instant) -> [PlayerRef] {
        guard let limit else { return [] }
        return awaited.filter { player in since[player.id].map { now - $0 >= limit } ?? false }
    }
}
