import EventBus
import Multipeer

// The events guess-the-number posts for user interfaces: a host's room posts them on its bus as
// it goes (the room layer's `RoomTicks`, through `GuessRules.post(_:numbered:on:)`), beside
// the room's own (``EventName/chat``, ``EventName/playerJoined``…). Observers run on the
// session's threads and must be quick.

extension EventName where Payload == JudgedGuess {
    /// A guess was judged ("bob guessed 50: too high"), every guess included even when the
    /// broadcast only counted it.
    public static var verdict: EventName<JudgedGuess> { EventName("guessnum.verdict") }
}

extension EventName where Payload == RoundWon {
    /// A round ended and its secret was revealed.
    public static var roundWon: EventName<RoundWon> { EventName("guessnum.roundWon") }
}

extension EventName where Payload == RoundStarted {
    /// A round started.
    public static var roundStarted: EventName<RoundStarted> { EventName("guessnum.roundStarted") }
}

extension EventName where Payload == ScoreboardUpdate {
    /// The scoreboard changed after a win.
    public static var scoreboardChanged: EventName<ScoreboardUpdate> { EventName("guessnum.scoreboardChanged") }
}

extension EventName where Payload == WelcomeMessage {
    /// A guest was welcomed and now knows the state of the game.
    public static var welcomed: EventName<WelcomeMessage> { EventName("guessnum.welcomed") }
}

extension EventName where Payload == PeerStateChange {
    /// A guest's host left or was lost.
    public static var hostLeft: EventName<PeerStateChange> { EventName("guessnum.hostLeft") }
}

extension EventName where Payload == PlayerListChange {
    /// A row of a ``PlayerListViewModel`` changed.
    public static var playerListChanged: EventName<PlayerListChange> { EventName("guessnum.playerListChanged") }
}

extension GuessRules {
    /// Posts `event`, item `sequence` of a room's broadcast, on `bus` under its ``EventName``
    /// (``EventName/verdict``, ``EventName/roundStarted``, ``EventName/roundWon``,
    /// ``EventName/scoreboardChanged``): what a room's `RoomTicks` does with the game's events
    /// (the room's own items it posts itself, `RoomItem.post(on:postingEvent:)`).
    package static func post(_ event: GuessEvent, numbered sequence: UInt64, on bus: EventBus) {
        switch event.numbered(sequence) {
        case .verdict(let line): bus.post(.verdict, line)
        case .roundStarted(let started): bus.post(.roundStarted, started)
        case .roundWon(let won): bus.post(.roundWon, won)
        case .scoreboard(let update): bus.post(.scoreboardChanged, update)
        case .joined, .left, .away, .back, .renamed, .chat, .unknown: break  // never a game event's
        }
    }
}
