import Rooms

/// The rules and limits of a hosted guess-the-number game: the room's (``room``, whose values
/// read and write as if they were this type's own, `configuration.maximumPlayers`) and the
/// game's own. The defaults suit a LAN party of any size. A room of the game is made from it as
/// every room is: `RoomHost(session:rules:configuration:moveThrottle:password:)` with
/// ``rules()``, ``roomConfiguration`` and ``guessThrottle``.
@dynamicMemberLookup
public struct GameConfiguration: Sendable {
    /// The room's rules and limits: admission, held seats, budgets, broadcast pacing.
    public var room = RoomConfiguration()
    /// The range of the first round, and of later rounds unless the host picks another (1–100).
    public var range: GuessRange
    /// Where secrets come from (the system's secure random source).
    public var secretSource: SecretSource
    /// Guesses a guest may make per second on average (20, ``GuessRules/moveThrottle``'s).
    public var guessesPerSecond: Double = GuessRules.moveThrottle.rate
    /// Guesses a guest may make at once after a quiet spell (5, ``GuessRules/moveThrottle``'s).
    public var guessBurst: Double = GuessRules.moveThrottle.burst
    /// The password of a private game; nil (the default) lets anyone in. A guest must open a
    /// ``Rooms/PasswordExchange`` with its invitation (``Rooms/JoinRequest``) and confirm it, or is turned
    /// away.
    public var password: GamePassword?
    /// The most judgements of the current round a welcome carries (200).
    public var welcomeHistoryLimit = 200
    /// The most guess lines broadcast per tick; more are counted, not sent (250).
    public var maximumGuessLinesPerTick = 250

    /// The defaults, with the given range and secret source.
    public init(range: GuessRange = .standard, secretSource: SecretSource = .secureRandom) {
        self.range = range
        self.secretSource = secretSource
    }

    /// The room's values, read and written as this configuration's own.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RoomConfiguration, Value>) -> Value {
        get { room[keyPath: keyPath] }
        set { room[keyPath: keyPath] = newValue }
    }

    /// The room's values that are read only (``Rooms/RoomConfiguration/seatHoldSeconds`` and the like).
    public subscript<Value>(dynamicMember keyPath: KeyPath<RoomConfiguration, Value>) -> Value {
        room[keyPath: keyPath]
    }

    /// Checks that every value makes sense.
    /// - Throws: ``Rooms/GameError/Code/invalidConfiguration``.
    public func validate() throws(GameError) {
        if let problem = room.problem { throw .invalidConfiguration(problem) }
        if !(guessesPerSecond > 0) || !(guessBurst >= 1) {
            throw .invalidConfiguration("guesses per second must be above zero and the burst at least 1")
        }
        if welcomeHistoryLimit < 0 || maximumGuessLinesPerTick < 0 { throw .invalidConfiguration("limits cannot be negative") }
    }

    /// The game's settings: its range and what a welcome and the scoreboard carry.
    public var settings: GuessSettings {
        var settings = GuessSettings(range: range)
        settings.welcomeHistoryLimit = welcomeHistoryLimit
        settings.scoreboardLimit = self.scoreboardLimit
        return settings
    }

    /// The rules of a new game, its first round drawn unless `drawingFirstRound` is false (a game
    /// resumed from a store goes on with its own).
    /// - Throws: ``Rooms/GameError/Code/secretOutOfRange`` when a fixed secret lies outside the range.
    public func rules(drawingFirstRound: Bool = true) throws(GameError) -> GuessRules {
        var rules = GuessRules(settings: settings, secretSource: secretSource)
        if drawingFirstRound { try rules.prepareRound(over: range) }
        return rules
    }

    /// The room's rules and limits, with this game's cap on the guess lines of a tick.
    public var roomConfiguration: RoomConfiguration {
        var room = room
        room.maximumLinesPerTick = maximumGuessLinesPerTick
        return room
    }

    /// How many guess lines (and, separately, joins and leaves) one tick of `interval` lists for
    /// a game of `players`: within ``Rooms/RoomConfiguration/broadcastLinesPerSecond`` for all of them
    /// together, at least 1 and at most ``maximumGuessLinesPerTick``.
    func listedLinesPerTick(players: Int, interval: Duration) -> Int {
        room.listedLinesPerTick(players: players, interval: interval, cap: maximumGuessLinesPerTick)
    }

    /// The room's broadcast interval for a game of `players` (``Rooms/RoomConfiguration/broadcastInterval(players:)``).
    func broadcastInterval(players: Int) -> Duration { room.broadcastInterval(players: players) }

    /// How often a guest may guess (``guessesPerSecond``, ``guessBurst``).
    public var guessThrottle: Throttle { Throttle(rate: guessesPerSecond, burst: guessBurst) }
}
