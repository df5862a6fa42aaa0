import EventBus
import Foundation
import Multipeer
import Rooms
@testable import GuessnumGame

/// What a guest of guess-the-number is told, in the order it happened: one typed value for
/// everything its screen shows (``GuestGame/updates``), also posted on the guest's event bus
/// under its ``EventName`` for the views that observe one kind (the player list).
public enum GuestGameEvent: Sendable {
    /// Something that happened in the game (posted under the item's own event name, as a
    /// room's ticks post it: `RoomItem.post(on:postingEvent:)`).
    case item(HistoryItem)
    /// The host welcomed this guest (again, after a drop that lost too much).
    case welcomed(WelcomeMessage)
    /// A round's reveal, checked against its commitment and every verdict.
    case fairness(FairnessCheck)
    /// Guesses the host left out of a batch or a replay.
    case omitted(OmittedGuesses)
    /// What this guest missed while away, now arrived.
    case caughtUp(CaughtUp)
    /// The host refused something this guest sent (a guess out of range, a chat line too long…).
    case error(GameError)
    /// The host left, or the link to it was lost.
    case hostLeft(PeerStateChange)

    /// Whether it is something that happened in the game that the guest `you` did not do
    /// itself: an item a player's screen lists, not a score update (the scores show those) nor
    /// an unknown item, nor the guest's own chat line, absence or return.
    func isNews(to you: UUID?) -> Bool {
        guard case .item(let item) = self else { return false }
        return RoomItem<GuessRules>(item).isNews(to: you)
    }

    /// Posts it on `bus` under its ``EventName``.
    func post(on bus: EventBus) {
        switch self {
        case .item(let item): RoomItem<GuessRules>(item).post(on: bus) { GuessRules.post($1, numbered: $0, on: $2) }
        case .welcomed(let welcome): bus.post(.welcomed, welcome)
        case .fairness(let check): bus.post(.fairnessChecked, check)
        case .omitted(let omitted): bus.post(.guessesOmitted, omitted)
        case .caughtUp(let caughtUp): bus.post(.caughtUp, caughtUp)
        case .error(let error): bus.post(.gameError, error)
        case .hostLeft(let change): bus.post(.hostLeft, change)
        }
    }
}
