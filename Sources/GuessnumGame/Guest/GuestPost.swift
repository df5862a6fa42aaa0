import EventBus
import Foundation

/// What a ``GuestView`` change means for the guest's event bus, in order: a history item,
/// posted just as the host posts it, or one of the few things only a guest posts.
enum GuestPost: Sendable {
    /// Posted under the item's own event name (see ``HistoryItem/post(on:)``).
    case item(HistoryItem)
    case welcomed(WelcomeMessage)
    case fairness(FairnessCheck)
    case omitted(OmittedGuesses)
    case caughtUp(CaughtUp)
    case error(GameError)

    /// Whether it is something that happened in the game that the guest `you` did not do
    /// itself: an item a player's screen lists, not a score update (the scores show those) nor
    /// an unknown item, nor the guest's own chat line, absence or return.
    func isNews(to you: UUID?) -> Bool {
        guard case .item(let item) = self else { return false }
        switch item {
        case .scoreboard, .unknown: return false
        case .chat(let chat): return chat.from.id != you
        case .away(let away): return away.player.id != you
        case .back(let back): return back.player.id != you
        case .verdict, .joined, .left, .renamed, .roundWon, .roundStarted: return true
        }
    }

    /// Posts it on `bus` under its ``EventName``.
    func post(on bus: EventBus) {
        switch self {
        case .item(let item): item.post(on: bus)
        case .welcomed(let welcome): bus.post(.welcomed, welcome)
        case .fairness(let check): bus.post(.fairnessChecked, check)
        case .omitted(let omitted): bus.post(.guessesOmitted, omitted)
        case .caughtUp(let caughtUp): bus.post(.caughtUp, caughtUp)
        case .error(let error): bus.post(.gameError, error)
        }
    }
}
