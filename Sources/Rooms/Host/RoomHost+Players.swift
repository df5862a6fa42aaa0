import EventBus
import Foundation
import Logging
import Multipeer

/// What a room host's program asks of it: removing and readmitting players, and the room as
/// it is now.
extension RoomHost {
    // MARK: Removing players

    /// Removes the player called `name` (exactly, or the only one whose name looks like it):
    /// their link is closed with ``RoomProtocol/removalReason``, everyone sees them removed, and
    /// for ``RoomConfiguration/removalPeriod`` (or until ``readmit(named:)``) they are turned
    /// away, as is every newcomer whose name looks like theirs or who comes from their network.
    /// - Returns: the player removed, and the address their link came from.
    /// - Throws: ``GameError/Code/noSuchPlayer`` when nobody in the room has that name.
    @discardableResult
    public func remove(named name: String) throws(GameError) -> PlayerRemoval {
        let until = session.clock.now + configuration.removalPeriod
        let removed = state.withLock { state in
            let addresses = state.table.seats.addresses
            return state.table.seats.remove(named: name, until: until) { addresses[$0] }
        }
        guard let (member, removal) = removed else { throw .noSuchPlayer(name) }
        logger.debug("Player removed by the host.", metadata: .game(peer: member.player.name))
        session.disconnect(member.peer, reason: RoomProtocol.removalReason)
        // An away player has no link to close: the seat is freed here.
        if state.read({ $0.table.seats.away[member.player.id] != nil }) { leave(member.peer) }
        return PlayerRemoval(player: member.player, address: removal.address)
    }

    /// Lifts every removal of a player whose name looks like `name`; the players let back.
    /// - Throws: ``GameError/Code/noSuchRemovedPlayer`` when nobody of that name is removed.
    public func readmit(named name: String) throws(GameError) -> [PlayerRemoval] {
        let lifted = state.withLock { $0.table.seats.readmit(named: name) }
        guard !lifted.isEmpty else { throw .noSuchRemovedPlayer(name) }
        return lifted.map { PlayerRemoval(player: PlayerRef(id: $0.id, name: $0.name), address: $0.address) }
    }

    /// The address the link of player `id` came from, while they are in the room or removed.
    public func address(of id: UUID) -> String? {
        state.withLock { $0.table.seats.address(of: id) }
    }

    // MARK: Snapshots

    /// Whether players need a password to join.
    public var isPrivate: Bool { privacy != nil }
    /// How many players are in the room (away ones included).
    public var playerCount: Int { state.read { $0.table.seats.roster.count } }
    /// Whether player `id` is away (their link dropped, their seat held).
    public func isAway(_ id: UUID) -> Bool { state.read { $0.table.seats.away[id] != nil } }

    /// The game's rules and state now.
    public var rules: Rules { state.read { $0.table.rules } }
    /// Everyone in the room, in join order.
    public var players: [PlayerRef] { state.read { $0.table.players } }
    /// The scores, most wins first.
    public var scores: [RoomScores.Entry] { state.read { $0.table.scores } }
    /// The current round's number (0 before ``start()``).
    public var round: Int { state.read { $0.table.round } }
    /// The round a room resumed from its store went on at; nil for a new room.
    public var resumedRound: Int? { state.read { $0.table.resumedAt } }

    /// Waits until the rules meet `condition` or `deadline` passes; the rules then.
    @discardableResult
    public func rules(until condition: @escaping @Sendable (Rules) -> Bool, before deadline: ContinuousClock.Instant) async -> Rules {
        await state.wait(until: { condition($0.table.rules) }, before: deadline).table.rules
    }
}
