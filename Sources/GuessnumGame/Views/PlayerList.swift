import Foundation
import Multipeer

/// The players with their presence, wins and guesses this round, as a value: each method takes
/// in one event and returns the rows it changed.
///
/// Players who leave stay listed as ``PlayerRow/Presence/gone`` until more than ``goneLimit``
/// others have gone after them. Every event costs the same whatever the number of players,
/// except the start of a round, which clears everyone's guess count.
public struct PlayerList: Sendable {
    /// How many gone players stay listed.
    public let goneLimit: Int

    private var rows: [UUID: PlayerRow] = [:]
    private var gone: [UUID] = []
    /// Rows shown as connecting whose player has not got in yet, with the row as it was before
    /// (nil when the invitation made it): an invitation turned away leaves the list as it found it.
    private var invited: [UUID: PlayerRow?] = [:]
    private var nextOrder: UInt64 = 0
    private var round = 0

    /// An empty list keeping up to `goneLimit` gone players.
    public init(goneLimit: Int = 20) {
        self.goneLimit = max(0, goneLimit)
    }

    /// Every row, in the order players first appeared.
    public var all: [PlayerRow] { rows.values.sorted { $0.order < $1.order } }

    /// The row of player `id`.
    public func row(for id: UUID) -> PlayerRow? { rows[id] }

    /// How many players are connected.
    public var connectedCount: Int { rows.values.count { $0.presence == .connected } }

    /// A session's peer changed state.
    public mutating func apply(_ change: PeerStateChange) -> [PlayerListChange] {
        switch change.state {
        case .connecting: return present(change.peer.identity, name: change.peer.displayName, as: .connecting)
        case .connected: return present(change.peer.identity, name: change.peer.displayName, as: .connected)
        case .notConnected:
            if let before = invited.removeValue(forKey: change.peer.identity) { return withdraw(change.peer.identity, back: before) }
            // A player the game holds a seat for stays away until the game says they left.
            return rows[change.peer.identity]?.presence == .away ? [] : leave(change.peer.identity)
        }
    }

    /// Someone's link dropped and the host holds their seat.
    public mutating func apply(_ away: PlayerAway) -> [PlayerListChange] {
        present(away.player.id, name: away.player.name, as: .away)
    }

    /// Someone who was away is back.
    public mutating func apply(_ back: PlayerBack) -> [PlayerListChange] {
        present(back.player.id, name: back.player.name, as: .connected, renaming: true)
    }

    /// The game named a newcomer.
    public mutating func apply(_ joined: PlayerJoined) -> [PlayerListChange] {
        present(joined.player.id, name: joined.player.name, as: .connected, renaming: true)
    }

    /// Someone left the game.
    public mutating func apply(_ left: PlayerLeft) -> [PlayerListChange] {
        leave(left.player.id)
    }

    /// Someone took another name.
    public mutating func apply(_ renamed: PlayerRenamed) -> [PlayerListChange] {
        guard rows[renamed.player.id] != nil else { return [] }
        rows[renamed.player.id]?.name = renamed.player.name
        return [.updated(rows[renamed.player.id]!)]
    }

    /// A guess was judged.
    public mutating func apply(_ line: JudgedGuess) -> [PlayerListChange] {
        var changes = line.round > round ? startRound(line.round) : []
        guard line.round == round, line.verdict.countsAsGuess, rows[line.player.id] != nil else { return changes }
        rows[line.player.id]?.guessesThisRound += 1
        changes.append(.updated(rows[line.player.id]!))
        return changes
    }

    /// A round started.
    public mutating func apply(_ started: RoundStarted) -> [PlayerListChange] {
        started.round > round ? startRound(started.round) : []
    }

    /// A round was won.
    public mutating func apply(_ won: RoundWon) -> [PlayerListChange] {
        guard let winner = won.winner, rows[winner.id] != nil else { return [] }
        rows[winner.id]?.wins += 1
        return [.updated(rows[winner.id]!)]
    }

    /// The scoreboard changed: its entries give the wins of the players they name.
    public mutating func apply(_ update: ScoreboardUpdate) -> [PlayerListChange] {
        update.entries.compactMap { entry in
            guard let row = rows[entry.player.id], row.wins != entry.wins else { return nil }
            rows[entry.player.id]?.wins = entry.wins
            return .updated(rows[entry.player.id]!)
        }
    }

    /// A guest was welcomed: the players, scores and guesses it was told of.
    public mutating func apply(_ welcome: WelcomeMessage) -> [PlayerListChange] {
        let game = welcome.game
        var changes = game.round > round ? startRound(game.round) : []
        for player in game.players + [welcome.you] {
            changes += present(player.id, name: player.name, as: .connected, renaming: true)
        }
        for entry in game.scoreboard where rows[entry.player.id] != nil {
            rows[entry.player.id]?.wins = entry.wins
        }
        var guesses: [UUID: Int] = [:]
        for judgement in game.history where judgement.verdict.countsAsGuess { guesses[judgement.player.id, default: 0] += 1 }
        for (id, count) in guesses where rows[id] != nil { rows[id]?.guessesThisRound = count }
        changes += Set(game.scoreboard.map(\.player.id)).union(guesses.keys).compactMap { rows[$0].map(PlayerListChange.updated) }
        return changes
    }

    private mutating func present(_ id: UUID, name: String, as presence: PlayerRow.Presence, renaming: Bool = false) -> [PlayerListChange] {
        if presence == .connecting {
            if rows[id]?.presence != .connected, invited[id] == nil { invited[id] = .some(rows[id]) }
        } else {
            invited[id] = nil
        }
        if var row = rows[id] {
            if row.presence == .gone { gone.removeAll { $0 == id } }
            if renaming { row.name = name }
            // A late "connecting" never demotes a player who is already playing.
            if !(presence == .connecting && row.presence == .connected) { row.presence = presence }
            rows[id] = row
            return [.updated(row)]
        }
        let row = PlayerRow(id: id, name: name, presence: presence, wins: 0, guessesThisRound: 0, order: nextOrder)
        nextOrder += 1
        rows[id] = row
        return [.updated(row)]
    }

    /// An invitation that never got in: its row goes, or goes back to what it was (a player
    /// gone before, who tried to come back and was turned away).
    private mutating func withdraw(_ id: UUID, back before: PlayerRow?) -> [PlayerListChange] {
        guard let before else {
            rows[id] = nil
            return [.removed(id)]
        }
        rows[id] = before
        if before.presence == .gone, !gone.contains(id) { gone.append(id) }
        return [.updated(before)]
    }

    private mutating func leave(_ id: UUID) -> [PlayerListChange] {
        guard let row = rows[id], row.presence != .gone else { return [] }
        rows[id]?.presence = .gone
        var changes: [PlayerListChange] = [.updated(rows[id]!)]
        gone.append(id)
        while gone.count > goneLimit {
            let oldest = gone.removeFirst()
            rows[oldest] = nil
            changes.append(.removed(oldest))
        }
        return changes
    }

    private mutating func startRound(_ number: Int) -> [PlayerListChange] {
        round = number
        var changes: [PlayerListChange] = []
        for (id, row) in rows where row.guessesThisRound != 0 {
            rows[id]?.guessesThisRound = 0
            changes.append(.updated(rows[id]!))
        }
        return changes
    }
}
