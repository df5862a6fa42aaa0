import EventBus

/// A room's ticks handed to a store and posted on an event bus, for screens that observe one
/// kind of event (a player list, a host's game master): the room's own items under the room's
/// channels (``EventName/chat``, ``EventName/playerJoined``…, ``EventName/passwordRefusals``),
/// the game's events as the game posts them. Every item of a tick is posted, those the
/// broadcast only counted included. A room takes it as its store:
///
/// ```swift
/// let ticks = RoomTicks<GuessRules>(store: store, events: bus, leavesActivity: false) { GuessRules.post($1, numbered: $0, on: $2) }
/// let room = RoomHost(session: session, rules: rules, configuration: RoomConfiguration(), password: nil, keptBy: ticks, resuming: nil)
/// ```
package final class RoomTicks<Rules: GameRules>: RoomObserver {
    private let store: (any RoomObserver<Rules>)?
    private let events: EventBus
    private let postEvent: @Sendable (UInt64, Rules.Event, EventBus) -> Void

    /// Whether the room's activity stream still tells a screen everything.
    package let leavesActivity: Bool

    /// Ticks kept by `store` (if any) and posted on `events`, each game event by `postEvent`
    /// (with its sequence number).
    package init(
        store: (any RoomObserver<Rules>)?, events: EventBus, leavesActivity: Bool,
        postEvent: @escaping @Sendable (_ sequence: UInt64, _ event: Rules.Event, _ bus: EventBus) -> Void
    ) {
        (self.store, self.events, self.leavesActivity, self.postEvent) = (store, events, leavesActivity, postEvent)
    }

    package func keep(_ items: [RoomItem<Rules>], of table: RoomTable<Rules>) {
        store?.keep(items, of: table)
    }

    package func report(_ items: [RoomItem<Rules>], passwordRefusals: [PasswordRefusals]) {
        for item in items { item.post(on: events, postingEvent: postEvent) }
        for refusals in passwordRefusals { events.post(.passwordRefusals, refusals) }
    }
}

extension RoomItem {
    /// Posts the item on `bus` under its ``EventName`` (``EventName/playerJoined``,
    /// ``EventName/chat``, …), a game's event through `postEvent` (with its sequence number);
    /// an unknown item is not posted. The one mapping from items to events, for a room's ticks
    /// and for anything else that replays items onto a bus.
    package func post(on bus: EventBus, postingEvent postEvent: (_ sequence: UInt64, _ event: Rules.Event, _ bus: EventBus) -> Void) {
        switch self {
        case .joined(let joined): bus.post(.playerJoined, joined)
        case .left(let left): bus.post(.playerLeft, left)
        case .away(let away): bus.post(.playerAway, away)
        case .back(let back): bus.post(.playerBack, back)
        case .renamed(let renamed): bus.post(.playerRenamed, renamed)
        case .chat(let line): bus.post(.chat, line)
        case .scores(let scores): bus.post(.roomScores, scores)
        case .turnClock(let notice): bus.post(.turnClock, notice)
        case .game(let sequence, let event): postEvent(sequence, event, bus)
        case .unknown: break
        }
    }
}

extension EventName where Payload == RelayedChat {
    /// A chat line, the host's own included.
    public static var chat: EventName<RelayedChat> { EventName("guessnum.chat") }
}

extension EventName where Payload == PlayerJoined {
    /// Someone joined the game.
    public static var playerJoined: EventName<PlayerJoined> { EventName("guessnum.playerJoined") }
}

extension EventName where Payload == PlayerLeft {
    /// Someone left the game or was lost.
    public static var playerLeft: EventName<PlayerLeft> { EventName("guessnum.playerLeft") }
}

extension EventName where Payload == PlayerAway {
    /// Someone's link dropped; the host holds their seat for a while.
    public static var playerAway: EventName<PlayerAway> { EventName("guessnum.playerAway") }
}

extension EventName where Payload == PlayerBack {
    /// Someone who was away is back in their seat.
    public static var playerBack: EventName<PlayerBack> { EventName("guessnum.playerBack") }
}

extension EventName where Payload == PlayerRenamed {
    /// Someone is shown under another name.
    public static var playerRenamed: EventName<PlayerRenamed> { EventName("guessnum.playerRenamed") }
}

extension EventName where Payload == RoomScores {
    /// The room's scores after a round (a game whose events carry no scores of their own).
    public static var roomScores: EventName<RoomScores> { EventName("guessnum.roomScores") }
}

extension EventName where Payload == TurnClockNotice {
    /// A player's turn clock started, or ran out.
    public static var turnClock: EventName<TurnClockNotice> { EventName("guessnum.turnClock") }
}

extension EventName where Payload == PasswordRefusals {
    /// A private game turned guests from one network away for its password (the host's side
    /// only): the first at once, then at most one summary a minute per network.
    public static var passwordRefusals: EventName<PasswordRefusals> { EventName("guessnum.passwordRefusals") }
}
