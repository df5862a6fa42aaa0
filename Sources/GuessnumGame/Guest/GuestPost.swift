import EventBus

/// What a ``GuestView`` change means for the guest's event bus: one post each.
enum GuestEvent: Sendable {
    case welcomed(WelcomeMessage)
    case verdict(GuessLine)
    case chat(ChatLine)
    case joined(PlayerJoined)
    case left(PlayerLeft)
    case renamed(PlayerRenamed)
    case roundWon(RoundWon)
    case roundStarted(RoundStarted)
    case scoreboard(ScoreboardUpdate)
    case fairness(FairnessCheck)
    case omitted(OmittedGuesses)
    case error(GameError)
}

extension GuestEvent {
    /// Posts the event on `bus` under its ``EventName``.
    func post(on bus: EventBus) {
        switch self {
        case .welcomed(let welcome): bus.post(.welcomed, welcome)
        case .verdict(let line): bus.post(.verdict, line)
        case .chat(let line): bus.post(.chat, line)
        case .joined(let joined): bus.post(.playerJoined, joined)
        case .left(let left): bus.post(.playerLeft, left)
        case .renamed(let renamed): bus.post(.playerRenamed, renamed)
        case .roundWon(let won): bus.post(.roundWon, won)
        case .roundStarted(let started): bus.post(.roundStarted, started)
        case .scoreboard(let update): bus.post(.scoreboardChanged, update)
        case .fairness(let check): bus.post(.fairnessChecked, check)
        case .omitted(let omitted): bus.post(.guessesOmitted, omitted)
        case .error(let error): bus.post(.gameError, error)
        }
    }
}
