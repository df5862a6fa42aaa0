import EventBus

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
