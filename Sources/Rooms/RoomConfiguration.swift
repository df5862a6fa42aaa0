/// The room's rules and limits, whatever game it hosts: who may come in, how long a dropped
/// player's seat is held, how fast each player may send, and how broadcasts are paced. The
/// defaults suit a LAN party of any size.
public struct RoomConfiguration: Sendable {
    /// How long after a round ends the next one starts (3 s).
    public var pauseBetweenRounds: Duration = .seconds(3)
    /// How often broadcasts are flushed to everyone (50 ms). A mover hears a private reply at
    /// once; everyone else reads what a move did in the next flush.
    public var broadcastTick: Duration = .milliseconds(50)
    /// Chat lines (and renames and sync requests) a guest may send per second on average (5).
    public var chatLinesPerSecond: Double = 5
    /// Chat lines a guest may send at once after a quiet spell (10).
    public var chatBurst: Double = 10
    /// Messages of any kind a guest may send per second on average (50): moves and chat
    /// count, and so do messages the host cannot use (unknown, undecodable, oversized). What
    /// is over this budget is ignored unread.
    public var messagesPerSecond: Double = 50
    /// Messages of any kind a guest may send at once after a quiet spell (100).
    public var messageBurst: Double = 100
    /// How long a guest may keep sending over its message budget (refused at least once a
    /// second all along) before the host disconnects it for flooding (3 s). One burst is never
    /// enough.
    public var overBudgetPeriodBeforeDisconnect: Duration = .seconds(3)
    /// The most guests in the room; more are turned away with a goodbye (10,000).
    public var maximumPlayers = 10_000
    /// The most players from one network address (10): scripted clients on one machine cannot
    /// take every seat.
    public var maximumPlayersPerAddress = 10
    /// How long the host holds the seat of a player whose link dropped (60 s): same name,
    /// scores and throttles when they come back, shown as away meanwhile. Zero frees the seat at
    /// once. A player who said goodbye, or whom the host removed, is not held.
    public var awayGracePeriod: Duration = .seconds(60)
    /// How long a player the game waits for (their turn, their choice) has to move (60 s):
    /// 10 s before the end everyone is told, and then the game decides by its rule (a
    /// forfeited turn or throw, see ``GameRules/timedOut(_:)``). Nil: no clock, a player may
    /// stall the game for as long as they stay.
    public var turnTime: Duration? = .seconds(60)
    /// How many of the latest broadcast items the host keeps to replay to a player who comes
    /// back after a drop (1,000); one who missed more gets a fresh welcome instead.
    public var replayLimit = 1_000
    /// How long a player the host removed is turned away (the host can let them back sooner).
    public var removalPeriod: Duration = .seconds(600)
    /// The most players a welcome lists (100).
    public var welcomePlayerLimit = 100
    /// The most scoreboard entries a welcome or scoreboard message carries (20).
    public var scoreboardLimit = 20
    /// The most broadcast frames per second to all players together (20,000). Each player gets
    /// one frame per tick, so in a room of more than `broadcastFramesPerSecond ×
    /// broadcastTick` players the tick lengthens: 50 ms up to 1,000 players, 500 ms at 10,000.
    /// (On a 2-core machine a write to loopback costs about 10 µs of the host's time; 50,000
    /// a second saturated the host at 10,000 players, see BENCHMARKS.md.)
    public var broadcastFramesPerSecond = 20_000
    /// The most lines per second a broadcast lists to all players together (100,000): in a
    /// room of more than a few hundred players each tick lists fewer lines and only counts the
    /// rest (at 1,000 players 5 lines a tick, 100 a second; at 10,000, 5 a tick, 10 a second;
    /// never fewer than 1 a tick).
    public var broadcastLinesPerSecond = 100_000
    /// The most lines of a kind one tick lists (250): the game's commentary, and separately
    /// joins, leaves, absences and returns; more are counted, not listed.
    public var maximumLinesPerTick = 250

    /// The defaults.
    public init() {}

    /// ``awayGracePeriod`` in whole seconds, as the wire says it; nil when no seat is held.
    public var seatHoldSeconds: Int? {
        let seconds = Int(awayGracePeriod.components.seconds)
        return seconds > 0 ? seconds : nil
    }

    /// What makes no sense in these values, as the end of a sentence ("the broadcast tick must
    /// be longer than zero"); nil when every value does.
    public var problem: String? {
        if broadcastTick <= .zero { return "the broadcast tick must be longer than zero" }
        if pauseBetweenRounds < .zero { return "the pause between rounds cannot be negative" }
        if !(chatLinesPerSecond > 0) || !(chatBurst >= 1) {
            return "chat lines per second must be above zero and the burst at least 1"
        }
        if !(messagesPerSecond > 0) || !(messageBurst >= 1) || overBudgetPeriodBeforeDisconnect < .zero {
            return "messages per second must be above zero, the message burst at least 1, and the time over budget before a disconnect not negative"
        }
        if broadcastFramesPerSecond < 1 || broadcastLinesPerSecond < 1 { return "the broadcast budgets must be at least 1 a second" }
        if awayGracePeriod < .zero { return "the grace period of a dropped player cannot be negative" }
        if let turnTime, turnTime <= .zero { return "the time for a turn must be longer than zero" }
        if maximumPlayers < 1 { return "the game must admit at least one player" }
        if maximumPlayersPerAddress < 1 { return "the game must admit at least one player from each address" }
        if welcomePlayerLimit < 0 || scoreboardLimit < 0 || replayLimit < 0 || maximumLinesPerTick < 0 { return "limits cannot be negative" }
        return nil
    }

    /// The broadcast interval for a room of `players`: ``broadcastTick``, or longer so that one
    /// frame per player per tick stays within ``broadcastFramesPerSecond``.
    public func broadcastInterval(players: Int) -> Duration {
        broadcastInterval(frames: players)
    }

    /// The broadcast interval after a tick that sent `frames` frames in all: ``broadcastTick``,
    /// or longer so that the frames stay within ``broadcastFramesPerSecond``.
    public func broadcastInterval(frames: Int) -> Duration {
        max(broadcastTick, .seconds(Double(frames) / Double(broadcastFramesPerSecond)))
    }

    /// How many lines one tick of `interval` lists for a room of `players`: within
    /// ``broadcastLinesPerSecond`` for all of them together, at least 1 and at most `cap`.
    public func listedLinesPerTick(players: Int, interval: Duration, cap: Int) -> Int {
        let budget = Double(broadcastLinesPerSecond) * interval.seconds / Double(max(players, 1))
        return max(1, min(cap, Int(budget)))
    }

    /// The chat throttle each player starts with.
    public var chatThrottle: Throttle { Throttle(rate: chatLinesPerSecond, burst: chatBurst) }
    /// The message budget each player starts with.
    public var messageBudget: MessageBudget {
        MessageBudget(perSecond: messagesPerSecond, burst: messageBurst, cutOffAfter: overBudgetPeriodBeforeDisconnect)
    }
}
