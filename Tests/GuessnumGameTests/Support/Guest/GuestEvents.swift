import EventBus
import GuessnumGame

// What the tests' guest game (``GuestGame``) posts besides the room's channels and the game's
// (``EventName/verdict``…): nothing else in guessnum reads these.

/// How many guess lines a busy host left out of one broadcast.
public struct OmittedGuesses: Sendable, Hashable {
    /// The number left out.
    public let count: Int

    /// A report of `count` lines left out.
    public init(count: Int) {
        self.count = count
    }
}

extension EventName where Payload == CaughtUp {
    /// A guest that came back after a drop was caught up: by a replay (its items are posted
    /// right after, under their own names) or by a fresh welcome.
    public static var caughtUp: EventName<CaughtUp> { EventName("guessnum.caughtUp") }
}

extension EventName where Payload == GameError {
    /// The host told this guest that something went wrong ("slow down: …").
    public static var gameError: EventName<GameError> { EventName("guessnum.gameError") }
}

extension EventName where Payload == FairnessCheck {
    /// A guest checked a reveal: whether the host was honest.
    public static var fairnessChecked: EventName<FairnessCheck> { EventName("guessnum.fairnessChecked") }
}

extension EventName where Payload == OmittedGuesses {
    /// The host left guess lines out of a busy tick.
    public static var guessesOmitted: EventName<OmittedGuesses> { EventName("guessnum.guessesOmitted") }
}
