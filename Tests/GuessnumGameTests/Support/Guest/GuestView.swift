import Foundation
import Multipeer
import Rooms
@testable import GuessnumGame

/// What a guest knows of the game: the round, its history, the players, the scores and its
/// findings about the host's honesty. A value with no I/O, kept beside the room as the guest
/// knows it (``room``), which puts what the host sends in the host's order first.
public struct GuestView: Sendable {
    /// How many judgements of the current round are kept (the oldest are dropped in batches).
    public static var historyLimit: Int { SeenGame.historyLimit }

    /// The room as this guest knows it: its numbering, its players, what waits for a catch-up.
    public internal(set) var room = RoomGuestState<GuessRules>()
    /// Whether a welcome has arrived; until then broadcasts are ignored.
    public var isWelcomed: Bool { room.isWelcomed }
    /// This guest, under the name the host gave it.
    public var you: PlayerRef? { room.you }
    /// What this guest has seen of the game, as its screen's presenter keeps it.
    private(set) var seen = SeenGame()
    /// The current round's number (0 before the welcome).
    public var round: Int { seen.round }
    /// The current round's range.
    public var range: GuessRange? { seen.range }
    /// The recent judgements of the current round, oldest first.
    public var history: [Judgement] { seen.history }
    /// The round before the current one, as this guest saw it; nil until a round starts after
    /// the welcome.
    public var previousRound: FinishedRound? { seen.previousRound }
    /// The verdict on this guest's last guess.
    public internal(set) var lastVerdict: JudgedGuess?
    /// The current round's reveal, once it is over.
    public var reveal: RoundWon? { seen.reveal }
    /// The scoreboard, best first: the host's last word on it, kept current with every verdict,
    /// win and rename since.
    public var scoreboard: [Scoreboard.Entry] { seen.scores.ranked }
    /// The players this guest has heard of (all of them in a small game).
    public var players: [UUID: PlayerRef] {
        Dictionary((room.players + [room.you].compactMap { $0 }).map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }
    /// How many players there are.
    public var playerCount: Int { room.playerCount }
    /// Round number → whether the host was honest in it.
    public var fairnessChecks: [Int: FairnessCheck] { seen.fairnessChecks }
    /// Guess lines the host left out of busy broadcasts.
    public internal(set) var omittedGuesses = 0
    /// How many welcomes have arrived (the first, and fresh ones after a rejoin or a request).
    public var welcomes: Int { room.welcomes }
    /// How many replays of missed items have arrived (after rejoins).
    public var replays: Int { room.replays }
    /// How long the host keeps this guest's seat if the link drops, from the last welcome; nil
    /// when it keeps none.
    public var seatHold: Duration? { room.seatHold }
    /// The sequence number of the last broadcast item taken in (or that the welcome included).
    public var lastSequence: UInt64 { room.lastSequence }
    /// What a guest coming back after a drop says it has (``lastSequence``); nil before any
    /// welcome, when it has nothing to go on from.
    public var resumePoint: UInt64? { isWelcomed ? lastSequence : nil }

    init() {}

    /// Takes in what the host sent; returns what to post.
    mutating func take(_ message: RoomHostMessage<GuessRules>, from host: PeerID) -> [GuestGameEvent] {
        keep(room.take(message, from: host))
    }

    /// Takes in what the room `told` this guest, the room now being `room`; returns what to post.
    mutating func keep(_ told: [RoomGuestEvent<GuessRules>], in room: RoomGuestState<GuessRules>) -> [GuestGameEvent] {
        self.room = room
        return keep(told)
    }

    /// Takes in what the room told this guest, in order; returns what to post.
    mutating func keep(_ told: [RoomGuestEvent<GuessRules>]) -> [GuestGameEvent] {
        told.flatMap { event -> [GuestGameEvent] in
            switch event {
            case .welcomed(let welcome): return take(welcome)
            case .item(let item): return take(item.historyItem, shownAlready: false)
            case .replyCopy(let item): return take(item.historyItem, shownAlready: true)
            case .reply(.verdict(let line)): return takeOwn(line)
            case .reply, .view: return []  // the host sends no other reply, and no views
            case .omitted(let count):
                let (total, overflow) = omittedGuesses.addingReportingOverflow(count)
                omittedGuesses = overflow ? .max : total  // a hostile host's count must not stop the guest
                return [.omitted(OmittedGuesses(count: count))]
            case .caughtUp(let missed): return [.caughtUp(CaughtUp(missed: missed))]
            case .refused(let refusal): return [.error(.received(code: refusal.code, message: refusal.message))]
            case .error(let error): return [.error(error)]
            case .hostLeft(let change): return [.hostLeft(change)]
            }
        }
    }

    private mutating func take(_ welcome: RoomWelcome<GuessRules>) -> [GuestGameEvent] {
        let checks = seen.take(welcome.view, checkingReveals: true)
        return [.welcomed(WelcomeMessage(you: welcome.you, game: GuessCodec.state(of: welcome)))] + checks.map(GuestGameEvent.fairness)
    }

    /// Takes in this guest's own verdict, told before its broadcast copy; returns what to post.
    private mutating func takeOwn(_ line: JudgedGuess) -> [GuestGameEvent] {
        lastVerdict = line
        seen.take(line)
        return [.item(.verdict(line))]
    }

    /// Takes in one broadcast item; returns what to post: the item itself (unless it is the
    /// copy of an own verdict `shownAlready`, or unknown), then any fairness check it brings.
    private mutating func take(_ item: HistoryItem, shownAlready: Bool) -> [GuestGameEvent] {
        if shownAlready { return [] }  // taken in as the guest's own verdict
        switch item {
        case .verdict(let line):
            if line.player.id == you?.id { lastVerdict = line }
            seen.take(line)
        case .renamed(let renamed):
            seen.scores.rename(renamed.player)
        case .roundWon(let won):
            return [.item(item)] + seen.take(won).map(GuestGameEvent.fairness)
        case .roundStarted(let started):
            seen.take(started)
        case .scoreboard(let update):
            seen.take(update)
        case .unknown:
            return []
        case .chat, .joined, .left, .away, .back:
            break  // the room keeps its players
        }
        return [.item(item)]
    }
}
