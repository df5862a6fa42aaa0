import GuessnumGame
import Rooms

/// One game this program plays, declared once in ``GameCatalog/games``: its name, the host's
/// settings it reads, how a player sits at it and how it is hosted. The host command, the list
/// of games, `--game` and the refusals that name the games the host plays all read the
/// catalog, so adding a game is its module and one line there.
public struct PlayableGame: Sendable {
    /// Which game.
    public let kind: GameKind
    /// The host's settings the game reads (beside those every game has).
    public let settings: Set<HostSetting>
    /// Checks the settings before anything starts; throws ``AppFailure`` with the sentence.
    let check: @Sendable (GameSettings) throws(AppFailure) -> Void
    /// A seat for a player of this game at `repl`.
    let seat: @Sendable (GuestREPL) -> any GuestSeat
    /// Hosts the game until it ends.
    let host: @Sendable (HostSetup, GameSettings) async throws -> Void

    /// Hosts this game with `settings` from `setup`, until it ends.
    public func host(_ setup: HostSetup, settings: GameSettings) async throws {
        try await host(setup, settings)
    }

    /// Checks `settings` for this game: each given setting is one the game reads, with a
    /// value it takes.
    /// - Throws: ``AppFailure`` with the sentence for the person at the keyboard.
    public func validate(_ settings: GameSettings) throws(AppFailure) {
        for setting in settings.given where !self.settings.contains(setting) {
            let readers = GameCatalog.games.filter { $0.settings.contains(setting) }
            throw AppFailure(
                "\(setting.option) is for \(GameText.list(readers.map(\.kind.title), or: true)) "
                    + "(--game \(GameText.list(readers.map(\.kind.id), or: true))), not \(kind.title).")
        }
        try check(settings)
    }
}

/// A setting of the host command that only some games read.
public enum HostSetting: String, Sendable, Hashable, CaseIterable {
    /// `--range`: the numbers a secret is drawn from.
    case range
    /// `--secret`: the first round's secret.
    case secret
    /// `--best-of`: the throws a match is the best of.
    case bestOf
    /// `--turn-time`: the seconds a player has for a turn.
    case turnTime

    /// How it is typed.
    public var option: String {
        switch self {
        case .range: "--range"
        case .secret: "--secret"
        case .bestOf: "--best-of"
        case .turnTime: "--turn-time"
        }
    }
}

/// The values of the host's game settings as typed (nil: not given).
public struct GameSettings: Sendable {
    public var range: GuessRange?
    public var secret: Int64?
    public var bestOf: Int?
    /// Seconds a player has for a turn; 0: no limit.
    public var turnTime: Int?

    /// Settings as typed.
    public init(range: GuessRange? = nil, secret: Int64? = nil, bestOf: Int? = nil, turnTime: Int? = nil) {
        (self.range, self.secret, self.bestOf, self.turnTime) = (range, secret, bestOf, turnTime)
    }

    /// The settings that were given, in the order of ``HostSetting``.
    var given: [HostSetting] {
        HostSetting.allCases.filter { setting in
            switch setting {
            case .range: range != nil
            case .secret: secret != nil
            case .bestOf: bestOf != nil
            case .turnTime: turnTime != nil
            }
        }
    }
}
