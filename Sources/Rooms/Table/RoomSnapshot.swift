import Foundation
import Logging
import Multipeer

/// A room as it stands, to be kept on disk and gone on with after the host's program ended
/// without ending the game (a crash, `kill -9`, a power cut): the rules' state, the round, the
/// numbering, the players in their seats and their wins. For rules that can be written down
/// (`Codable`); a game needs nothing more to be resumed. Between snapshots a store may append
/// each tick's ``RoomJournalEntry`` (rules with a ``GameRules/JournalEntry``) and
/// ``apply(_:)`` them when it reads the room back.
public struct RoomSnapshot<Rules: GameRules & Codable>: Sendable, Codable {
    /// One player's seat: the name the room gave them and their peer's display name.
    public struct Seat: Sendable, Hashable, Codable {
        /// The player.
        public var player: PlayerRef
        /// Their peer's display name (what they asked to be called).
        public var displayName: String

        /// The seat of `player`, whose peer's display name is `displayName`.
        public init(player: PlayerRef, displayName: String) {
            self.player = player
            self.displayName = displayName
        }
    }

    /// The game (``GameKind/id``), so that a snapshot of another game is not taken for this one.
    public var game: String
    /// The rules' state: the round going on, the board, the hands…
    public var rules: Rules
    /// The current round's number.
    public var round: Int
    /// The number of the last item broadcast when it was taken.
    public var lastSequence: UInt64
    /// The players in their seats (away ones included), in join order.
    public var seats: [Seat]
    /// Each player's wins, by identity.
    public var wins: [UUID: Int]

    /// A snapshot of the game `game` (``GameKind/id``) with `rules`; see the properties.
    public init(game: String, rules: Rules, round: Int, lastSequence: UInt64, seats: [Seat], wins: [UUID: Int]) {
        (self.game, self.rules, self.round, self.lastSequence, self.seats, self.wins) = (game, rules, round, lastSequence, seats, wins)
    }

    /// How far past a kept room's last sequence number a resumed room numbers its items: the
    /// earlier life may have broadcast items after it was last kept, and a number is never
    /// given twice.
    public static var resumeGap: UInt64 { resumeNumberingGap }
}

/// See ``RoomSnapshot/resumeGap``: the same for every game (a player's program reads a jump this
/// far as a restarted host).
package let resumeNumberingGap: UInt64 = 1_000_000

extension RoomHost where Rules: Codable {
    /// A room as ``init(session:rules:configuration:moveThrottle:password:logger:)`` makes it,
    /// kept by `store` after each tick that changed it (a `RoomStore`, or a ``RoomTicks`` that
    /// hands the ticks to one and posts them on an event bus), and going on from `snapshot` when
    /// given (its players' seats held as away, for the grace period, from now).
    package convenience init(
        session: Session, rules: Rules, configuration: RoomConfiguration, moveThrottle: Throttle = Rules.moveThrottle,
        password: GamePassword?, logger: Logger = Logger(label: "guessnum.room"), keptBy store: some RoomObserver<Rules>,
        resuming snapshot: RoomSnapshot<Rules>?
    ) {
        self.init(
            session: session, rules: rules, configuration: configuration, moveThrottle: moveThrottle, password: password, logger: logger,
            observer: store
        ) { table in
            if let snapshot { table.resume(from: snapshot, at: session.clock.now) }
        }
    }
}

extension RoomTable where Rules: Codable {
    /// The room as it stands.
    package var snapshot: RoomSnapshot<Rules> {
        RoomSnapshot(game: Rules.kind.id, rules: rules, round: round, lastSequence: lastSequence, seats: snapshotSeats, wins: wins)
    }

    /// The players in their seats as a snapshot keeps them, in join order.
    package var snapshotSeats: [RoomSnapshot<Rules>.Seat] {
        seats.roster.members.values.sorted { $0.order < $1.order }.map {
            RoomSnapshot<Rules>.Seat(player: $0.player, displayName: $0.peer.displayName)
        }
    }

    /// Goes on from `snapshot` (see ``resume(round:lastSequence:gap:players:wins:at:)``): its
    /// rules as they were (``GameRules/resume(from:)``), every player in a seat held as away since `now`.
    package mutating func resume(from snapshot: RoomSnapshot<Rules>, gap: UInt64 = RoomSnapshot<Rules>.resumeGap, at now: ContinuousClock.Instant) {
        rules.resume(from: snapshot.rules)
        resume(
            round: snapshot.round, lastSequence: snapshot.lastSequence, gap: gap,
            players: snapshot.seats.map { ($0.player, $0.displayName) }, wins: snapshot.wins, at: now)
    }
}
