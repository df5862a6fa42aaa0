/// The rules of one party game, as a value that a room runs.
///
/// A room does everything around a game that is not a rule of it: who is in the room and under
/// which name, who may come in (the password gate, the caps), how fast each player may send,
/// seats held for players whose link dropped, the numbered broadcast with its welcome and
/// replay, chat, and the scores across rounds. The rules say only what a move does, who may
/// make it, what each player sees, and when a round is over.
///
/// Rules are a value: every change is a `mutating` call that returns the ``Event``s it caused,
/// in order; the room numbers them, sends them to everyone, keeps them for replay, and shows
/// them to the host. The room calls the rules under its own lock, one call at a time, so rules
/// need no locks, tasks or clocks of their own. Nothing in a rule call may block.
///
/// A round begins with ``startRound(_:players:)`` and ends when ``roundResult`` stops being
/// nil; the room then credits the winners on its scoreboard and, after a pause, starts the next.
///
/// A move the rules refuse (not your turn, a square already taken) throws a ``MoveRefusal``,
/// which the room tells the mover alone. A move the rules accept may also carry a
/// ``MoveOutcome/reply`` for the mover alone, sent at once rather than with the next broadcast.
public protocol GameRules: Sendable {
    /// What the host chooses before the game starts (a range, a number of rounds).
    associatedtype Settings: Sendable, Hashable, Codable
    /// What a player sends to play.
    associatedtype Move: Sendable, Hashable, Codable
    /// What the game tells players: each accepted move's effect, a round's start and end.
    associatedtype Event: Sendable, Hashable, Codable
    /// What one player, or a watcher, sees of the game at one moment: what a newcomer's welcome
    /// carries, and what a player coming back is brought up to date with.
    associatedtype View: Sendable, Hashable, Codable
    /// How the game's messages look on the wire: the room protocol (``StandardRoomCodec``)
    /// unless the game's wire is older than the room layer.
    associatedtype Codec: RoomCodec = StandardRoomCodec<Self> where Codec.Rules == Self

    /// Which game these are.
    static var kind: GameKind { get }

    /// A game with `settings`, before its first round.
    init(settings: Settings)

    /// The settings the game was made with.
    var settings: Settings { get }

    /// Starts round `number` (1 for the first) with `players`, the players in the room now in the
    /// order they joined; the events that say so.
    mutating func startRound(_ number: Int, players: [PlayerRef]) -> [Event]

    /// A player came into the room (a newcomer; not one coming back to a held seat).
    mutating func playerJoined(_ player: PlayerRef) -> [Event]

    /// A player gave up their seat: they left, were removed, or their held seat's grace ran out.
    /// A player whose link only dropped keeps their seat and is not reported here.
    mutating func playerLeft(_ player: PlayerRef) -> [Event]

    /// Plays `move` for `player`.
    ///
    /// - Throws: ``MoveRefusal`` when the move breaks a rule; nothing changes then.
    mutating func apply(_ move: Move, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<Event>

    /// What `player` sees, or a watcher when `player` is nil or not playing.
    func view(for player: PlayerRef?) -> View

    /// How the current round ended, or nil while it goes on (and before the first round).
    var roundResult: RoundResult? { get }

    /// A player took another name (``PlayerRef/name``); the events that say what that changed in
    /// the game (a scoreboard's line), none by default.
    mutating func playerRenamed(_ player: PlayerRef) -> [Event]

    /// The room numbered `event` `sequence` in its broadcast (for a game whose views quote
    /// events with their numbers); nothing by default.
    mutating func numbered(_ event: Event, as sequence: UInt64)

    /// What a player moving faster than the room's move throttle is told (at most once a
    /// second): ``GameError/movesThrottled(perSecond:)`` by default.
    static func movesThrottled(perSecond rate: Double) -> GameError

    /// Whether every player sees the same (``view(for:)`` does not depend on the player): the room
    /// then asks for one view per tick and shares it, and a codec may encode it once for all the
    /// welcomes of a tick. False by default.
    static var everyoneSeesTheSame: Bool { get }

    /// Whether `event` is commentary that a busy room may count instead of listing (a guess
    /// line, when hundreds are made each tick): nothing a player's view depends on. None is, by
    /// default.
    static func isCommentary(_ event: Event) -> Bool

    /// Whether the game's own events carry the scores (a scoreboard richer than wins): the room
    /// then broadcasts no scores item of its own after a round, though it still counts wins.
    /// False by default.
    static var broadcastsOwnScores: Bool { get }

    /// Whether a player back after a drop counts `event` among the things it missed: a score
    /// update, which only refreshes the scores, is not (as the room's own scores item is not).
    /// True by default.
    static func isNews(_ event: Event) -> Bool

    /// The players the game waits for now: whose turn it is, who has yet to choose or reveal.
    /// The room times each (``RoomConfiguration/turnTime``) and tells the rules when one runs
    /// out (``timedOut(_:)``). Nobody by default (a game where everyone plays at will).
    var awaited: [PlayerRef] { get }

    /// `players`, all of them among ``awaited``, did not move within the room's turn time: the
    /// game decides for them by its rule (a forfeited turn, throw or round), so that nobody can
    /// stall it; the events that say so. A game with nobody ``awaited`` is never asked.
    mutating func timedOut(_ players: [PlayerRef]) -> [Event]

    /// Prepares the next round as the host's `/new ARGUMENT` asks (guess-the-number: a range
    /// such as `1-500`), before anything changes; throws the sentence for one it refuses. By
    /// default a game takes no argument.
    mutating func prepareRound(asked argument: String) throws(GameError)
    /// The numbers a round is played over, for the list of games (guess-the-number's range);
    /// nil by default.
    var announcedRange: ClosedRange<Int64>? { get }

    /// How fast each player may move (``Throttle/moves`` by default).
    static var moveThrottle: Throttle { get }

    // MARK: Kept on disk (see ``RoomSnapshot``)

    /// What a store appends for one tick instead of a fresh snapshot of the whole room (the
    /// tick's guesses, say, when a snapshot would hold thousands): ``RoomNoJournal`` by default.
    associatedtype JournalEntry: Sendable, Codable = RoomNoJournal

    /// The entry that brings a snapshot of these rules taken before the tick of `items` to
    /// these rules (``replay(_:)``), or nil when a fresh snapshot should be kept instead (a new
    /// round). Called under the room's lock: keep it short. Nil by default: a snapshot every tick.
    func journalEntry(for items: [RoomItem<Self>]) -> JournalEntry?

    /// Brings these rules, read back from a snapshot, forward by one tick's `entry`
    /// (``journalEntry(for:)``), as the tick did. Nothing by default.
    mutating func replay(_ entry: JournalEntry)

    /// `entry` as JSON that `JSONDecoder` reads back as `entry` (what `JSONEncoder` writes,
    /// keys in any order), written without an encoder: a busy game's store writes an entry
    /// every tick, and `JSONEncoder` spent more on it than the rest of keeping the game. Nil
    /// by default: `JSONEncoder` writes it.
    static func journalJSON(of entry: JournalEntry) -> [UInt8]?

    /// Goes on from `kept`, the rules of a room kept on disk, keeping what these rules were
    /// made with that is not kept (a source of secrets): `self = kept` by default.
    mutating func resume(from kept: Self)
}

extension GameRules {
    public mutating func playerRenamed(_ player: PlayerRef) -> [Event] { [] }
    public mutating func numbered(_ event: Event, as sequence: UInt64) {}
    public static func movesThrottled(perSecond rate: Double) -> GameError { .movesThrottled(perSecond: rate) }
    public static func isCommentary(_ event: Event) -> Bool { false }
    public static var broadcastsOwnScores: Bool { false }
    public static var everyoneSeesTheSame: Bool { false }
    public static func isNews(_ event: Event) -> Bool { true }
    public var awaited: [PlayerRef] { [] }
    public mutating func timedOut(_ players: [PlayerRef]) -> [Event] { [] }

    public mutating func prepareRound(asked argument: String) throws(GameError) {
        throw GameError(.invalidRange, "\(Self.kind.title) has no range: type /new alone.")
    }

    public var announcedRange: ClosedRange<Int64>? { nil }
    public static var moveThrottle: Throttle { .moves }
    public func journalEntry(for items: [RoomItem<Self>]) -> JournalEntry? { nil }
    public mutating func replay(_ entry: JournalEntry) {}
    public static func journalJSON(of entry: JournalEntry) -> [UInt8]? { nil }
    public mutating func resume(from kept: Self) { self = kept }
}

/// The journal entry of rules that keep a snapshot every tick (``GameRules/JournalEntry``'s
/// default): there is never one, and none is ever read.
public enum RoomNoJournal: Sendable, Codable {
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a game kept as snapshots has no journal entries"))
    }

    public func encode(to encoder: any Encoder) throws {}
}

/// What an accepted move caused.
public struct MoveOutcome<Event: Sendable & Hashable>: Sendable, Hashable {
    /// Told to the mover alone, at once (a verdict on a guess); nil when there is nothing private.
    public var reply: Event?
    /// Told to everyone with the room's next broadcast, in this order.
    public var broadcast: [Event]

    /// An outcome that tells everyone `broadcast` and the mover `reply`.
    public init(reply: Event? = nil, broadcast: [Event] = []) {
        self.reply = reply
        self.broadcast = broadcast
    }
}

/// How a round ended.
public struct RoundResult: Sendable, Hashable, Codable {
    /// Who won the round; empty for a draw or a round nobody could finish.
    public var winners: [PlayerRef]

    /// A round won by `winners` (none: a draw).
    public init(winners: [PlayerRef]) {
        self.winners = winners
    }

    /// A round nobody won.
    public static let draw = RoundResult(winners: [])
}

/// Names a game: how the program, the lobby and the wire tell games apart.
public struct GameKind: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The game's identifier: lowercase ASCII letters and digits, as typed after `--game` and
    /// carried in the advertisement (`guessnum`, `tictactoe`, `rps`).
    public let id: String
    /// The name people read ("tic-tac-toe").
    public let title: String
    /// The prefix of every message type of the game's protocol, version included
    /// (`tictactoe.v1.`).
    public let messagePrefix: String

    /// Names a game.
    public init(id: String, title: String, messagePrefix: String) {
        self.id = id
        self.title = title
        self.messagePrefix = messagePrefix
    }

    public var description: String { title }

    /// Whether `id` is a game identifier's shape: 1 to 16 lowercase ASCII letters and digits.
    public static func isValidID(_ id: String) -> Bool {
        (1...16).contains(id.utf8.count) && id.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
