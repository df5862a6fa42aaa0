import EventBus
import Foundation
import Rooms
import Synchronization

/// What a ``GameMaster`` does with each tick of its room: hands a store what changed (a
/// ``GameJournal``, under the room's lock, in order) and posts everything on the game's bus.
final class GuessTicks: RoomObserver {
    typealias Rules = GuessRules

    private let events: EventBus
    private let journal: (any GameJournalSink)?
    /// The sequence number the last journal handed on, and whether the resumed round was announced.
    private let state: Mutex<(journaled: UInt64, announced: Bool)>

    /// Whether the room's activity stream still tells a screen everything (see ``GameMaster``'s `showsActivity`).
    let leavesActivity: Bool

    init(events: EventBus, journal: (any GameJournalSink)?, journaled: UInt64, leavesActivity: Bool) {
        self.events = events
        self.leavesActivity = leavesActivity
        self.journal = journal
        state = Mutex((journaled, false))
    }

    /// Whether the resumed round is still to be announced; afterwards it is not.
    func announce() -> Bool {
        state.withLock { state in
            defer { state.announced = true }
            return !state.announced
        }
    }

    func keep(_ items: [RoomItem<GuessRules>], of table: RoomTable<GuessRules>) {
        guard let journal else { return }
        var changes = GameJournal()
        var players: Set<UUID> = []
        var scores: Set<UUID> = []
        for item in items {
            switch item {
            case .game(_, .roundStarted):
                if let round = table.rules.currentRound {
                    changes.roundStarted = RoundRecord(number: round.number, range: round.range, secret: round.secret, salt: round.salt)
                }
                changes.guesses = []
            case .game(_, .verdict(let line)):
                changes.guesses.append(GuessRecord(round: line.round, player: line.player, guess: line.guess))
                if line.verdict.countsAsGuess { scores.insert(line.player.id) }
            case .joined(let joined): players.insert(joined.player.id)
            case .left(let left): players.insert(left.player.id)
            case .renamed(let renamed):
                players.insert(renamed.player.id)
                if table.rules.scoreboard.entry(for: renamed.player.id) != nil { scores.insert(renamed.player.id) }
            default: break
            }
        }
        let roster = table.seats.roster
        // In join order, so that a record lists its players as the game does.
        for id in players.sorted(by: { (roster[$0]?.order ?? .max) < (roster[$1]?.order ?? .max) }) {
            if let member = roster[id] { changes.players.append(Self.record(of: member)) } else { changes.playersGone.append(id) }
        }
        changes.scores = scores.compactMap { table.rules.scoreboard.entry(for: $0) }
        let keep = state.withLock { state -> Bool in
            guard !changes.isEmpty || table.lastSequence != state.journaled else { return false }
            state.journaled = table.lastSequence
            return true
        }
        guard keep else { return }
        changes.lastSequence = table.lastSequence
        journal.keep(changes)
    }

    func report(_ items: [RoomItem<GuessRules>], passwordRefusals: [PasswordRefusals]) {
        for item in items { item.historyItem.post(on: events) }
        for refusals in passwordRefusals { events.post(.passwordRefusals, refusals) }
    }

    /// A player's seat as a store keeps it.
    static func record(of member: PlayerRoster.Member) -> PlayerRecord {
        PlayerRecord(id: member.player.id, displayName: member.peer.displayName, name: member.player.name)
    }
}
