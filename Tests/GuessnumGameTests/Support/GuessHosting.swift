import GuessnumGame
import Rooms

/// What a test hosts guess-the-number with, as `guessnum host` makes it from its options: the
/// room's rules and limits, the game's settings and secrets, how often a guest may guess, and
/// a password.
struct GuessHosting: Sendable {
    var room = RoomConfiguration()
    var settings: GuessSettings
    var secretSource: SecretSource
    var guessThrottle = GuessRules.moveThrottle
    var password: GamePassword?

    init(range: GuessRange = .standard, secretSource: SecretSource = .secureRandom) {
        settings = GuessSettings(range: range)
        self.secretSource = secretSource
    }

    /// A new game's rules, its first round drawn.
    func rules() throws(GameError) -> GuessRules {
        var rules = GuessRules(settings: settings, secretSource: secretSource)
        try rules.prepareRound(over: settings.range)
        return rules
    }
}
