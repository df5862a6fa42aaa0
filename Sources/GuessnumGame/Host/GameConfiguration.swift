/// The rules and limits of a hosted game. The defaults suit a LAN party of any size.
public struct GameConfiguration: Sendable {
    /// The range of the first round, and of later rounds unless the host picks another (1–100).
    public var range: GuessRange
    /// Where secrets come from (the system's secure random source).
    public var secretSource: SecretSource
    /// How long after a win the next round starts (3 s).
    public var pauseBetweenRounds: Duration = .seconds(3)
    /// How often broadcasts are flushed to everyone (50 ms). Guessers hear their own verdict
    /// at once; everyone else reads it in the next flush.
    public var broadcastTick: Duration = .milliseconds(50)
    /// Guesses a guest may make per second on average (20).
    public var guessesPerSecond: Double = 20
    /// Guesses a guest may make at once after a quiet spell (5).
    public var guessBurst: Double = 5
    /// Chat lines (and renames and sync requests) a guest may send per second on average (5).
    public var chatLinesPerSecond: Double = 5
    /// Chat lines a guest may send at once after a quiet spell (10).
    public var chatBurst: Double = 10
    /// Messages of any kind a guest may send per second on average (50): guesses and chat
    /// count, and so do messages the host cannot use (unknown, undecodable, oversized). What
    /// is over this budget is ignored unread.
    public var messagesPerSecond: Double = 50
    /// Messages of any kind a guest may send at once after a quiet spell (100).
    public var messageBurst: Double = 100
    /// How long a guest may keep sending over its message budget (refused at least once a
    /// second all along) before the host disconnects it with
    /// ``GameError/messageFlood(perSecond:)`` (3 s). One burst is never enough.
    public var overBudgetPeriodBeforeDisconnect: Duration = .seconds(3)
    /// The most guests in the game; more are turned away with a goodbye (10,000).
    public var maximumPlayers = 10_000
    /// The most players from one network address (10): scripted clients on one machine cannot
    /// take every seat. More are turned away with ``GameError/Code/tooManyFromAddress``.
    public var maximumPlayersPerAddress = 10
    /// The password of a private game; nil (the default) lets anyone in. A guest must open a
    /// ``PasswordExchange`` with its invitation (``JoinRequest``) and confirm it, or is turned
    /// away.
    public var password: GamePassword?
    /// How long the host holds the seat of a player whose link dropped (60 s): same name, wins,
    /// guesses this round and throttles when they come back, shown as away meanwhile. Zero frees
    /// the seat at once. A player who said goodbye, or whom the host removed, is not held.
    public var awayGracePeriod: Duration = .seconds(60)

    /// How many of the latest broadcast items the host keeps to replay to a player who comes
    /// back after a drop (1,000); one who missed more gets a fresh welcome instead.
    public var replayLimit = 1_000

    /// ``awayGracePeriod`` in whole seconds, as the wire says it; nil when no seat is held.
    var seatHoldSeconds: Int? {
        let seconds = Int(awayGracePeriod.components.seconds)
        return seconds > 0 ? seconds : nil
    }

    /// How long a player the host removed is turned away (the host can let them back sooner).
    public var removalPeriod: Duration = .seconds(600)
    /// The most judgements of the current round a welcome carries (200).
    public var welcomeHistoryLimit = 200
    /// The most players a welcome lists (100).
    public var welcomePlayerLimit = 100
    /// The most scoreboard entries a welcome or scoreboard message carries (20).
    public var scoreboardLimit = 20
    /// The most guess lines broadcast per tick; more are counted, not sent (250).
    public var maximumGuessLinesPerTick = 250
    /// The most broadcast frames per second to all players together (20,000). Each player gets
    /// one frame per tick, so in a game of more than `broadcastFramesPerSecond ×
    /// broadcastTick` players the tick lengthens: 50 ms up to 1,000 players, 500 ms at 10,000.
    /// (On a 2-core machine a write to loopback costs about 10 µs of the host's time; 50,000
    /// a second saturated the host at 10,000 players, see BENCHMARKS.md.)
    public var broadcastFramesPerSecond = 20_000
    /// The most guess lines per second delivered to all players together (100,000). In a game
    /// of more than a few hundred players each tick lists fewer lines and only counts the rest
    /// (at 1,000 players 5 lines a tick, 100 a second; at 10,000, 5 a tick, 10 a second; never
    /// fewer than 1 a tick); joins and
    /// leaves are listed under the same cap, and counted beyond it.
    public var broadcastLinesPerSecond = 100_000

    /// The defaults, with the given range and secret source.
    public init(range: GuessRange = .standard, secretSource: SecretSource = .secureRandom) {
        self.range = range
        self.secretSource = secretSource
    }

    /// Checks that every value makes sense.
    /// - Throws: ``GameError/Code/invalidConfiguration``.
    public func validate() throws(GameError) {
        if broadcastTick <= .zero { throw .invalidConfiguration("the broadcast tick must be longer than zero") }
        if pauseBetweenRounds < .zero { throw .invalidConfiguration("the pause between rounds cannot be negative") }
        if !(guessesPerSecond > 0) || !(guessBurst >= 1) {
            throw .invalidConfiguration("guesses per second must be above zero and the burst at least 1")
        }
        if !(chatLinesPerSecond > 0) || !(chatBurst >= 1) {
            throw .invalidConfiguration("chat lines per second must be above zero and the burst at least 1")
        }
        if !(messagesPerSecond > 0) || !(messageBurst >= 1) || overBudgetPeriodBeforeDisconnect < .zero {
            throw .invalidConfiguration("messages per second must be above zero, the message burst at least 1, and the time over budget before a disconnect not negative")
        }
        if broadcastFramesPerSecond < 1 || broadcastLinesPerSecond < 1 {
            throw .invalidConfiguration("the broadcast budgets must be at least 1 a second")
        }
        if awayGracePeriod < .zero { throw .invalidConfiguration("the grace period of a dropped player cannot be negative") }
        if maximumPlayers < 1 { throw .invalidConfiguration("the game must admit at least one player") }
        if maximumPlayersPerAddress < 1 { throw .invalidConfiguration("the game must admit at least one player from each address") }
        if welcomeHistoryLimit < 0 || welcomePlayerLimit < 0 || scoreboardLimit < 0 || maximumGuessLinesPerTick < 0 || replayLimit < 0 {
            throw .invalidConfiguration("limits cannot be negative")
        }
    }

    /// The broadcast interval for a game of `players`: ``broadcastTick``, or longer so that one
    /// frame per player per tick stays within ``broadcastFramesPerSecond``.
    func broadcastInterval(players: Int) -> Duration {
        max(broadcastTick, .seconds(Double(players) / Double(broadcastFramesPerSecond)))
    }

    /// How many guess lines (and, separately, joins and leaves) one tick of `interval` lists for
    /// a game of `players`: within ``broadcastLinesPerSecond`` for all of them together, at
    /// least 1 and at most ``maximumGuessLinesPerTick``.
    func listedLinesPerTick(players: Int, interval: Duration) -> Int {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let budget = Double(broadcastLinesPerSecond) * seconds / Double(max(players, 1))
        return max(1, min(maximumGuessLinesPerTick, Int(budget)))
    }

    var guessThrottle: Throttle { Throttle(rate: guessesPerSecond, burst: guessBurst) }
    var chatThrottle: Throttle { Throttle(rate: chatLinesPerSecond, burst: chatBurst) }
    var messageBudget: MessageBudget {
        MessageBudget(perSecond: messagesPerSecond, burst: messageBurst, cutOffAfter: overBudgetPeriodBeforeDisconnect)
    }
}
