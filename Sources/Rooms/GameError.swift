import Multipeer

/// The error type of a game room and of the games on it.
///
/// Like `MultipeerError`, every error carries a ``code`` to switch on and a ``message``: one
/// sentence, written for the person at the keyboard, that says what went wrong and how to fix
/// it. The host sends the same two fields to a guest in a `GameErrorMessage`. The room's
/// sentences are here (names, chat, budgets, admission, passwords); guess-the-number's own
/// (ranges, secrets, guesses) are in `GuessnumGame`, whose codes are still listed here until
/// that game's rules move onto ``GameRules`` and refuse moves with ``MoveRefusal``s.
///
/// An error made from another one (the session's) keeps it as its ``underlying`` cause, for
/// logs: ``debugDescription`` names it. It never travels, never replaces the sentence, and two
/// errors are equal when their code and sentence are.
public struct GameError: CodedError, Sendable {
    /// What kind of failure this is. The raw values travel on the wire.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        /// A range is empty, reversed, holds a single number, or is absurdly large.
        case invalidRange
        /// A given secret lies outside the round's range.
        case secretOutOfRange
        /// A game configuration value makes no sense (a zero tick, a negative rate).
        case invalidConfiguration
        /// A display name broke the rules.
        case invalidName
        /// A chat line is longer than the host accepts.
        case chatTooLong
        /// A guest sent guesses or chat lines faster than the host allows.
        case throttled
        /// The game is full.
        case gameFull
        /// The game has as many players from the guest's network address as it admits.
        case tooManyFromAddress
        /// The guest has not joined a game yet, or the host is gone.
        case notJoined
        /// A message could not be sent through the session.
        case sendFailed
        /// No player in the game has the name given.
        case noSuchPlayer
        /// A typed number is too large to be a guess in any range.
        case numberTooLarge
        /// A guess outside the round's range: the host tells the guesser alone.
        case guessOutOfRange
        /// A password that cannot be used (empty, or too long).
        case invalidPassword
        /// The game is private and the guest started no password exchange.
        case passwordNeeded
        /// The guest's password is not the game's.
        case wrongPassword
        /// Too many wrong passwords came from the guest's address lately.
        case tooManyWrongPasswords
        /// The host could not prove it knows the private game's password (a wrong password, or
        /// a false host), or a game listed as private did not ask for it.
        case passwordNotConfirmed
        /// The host runs another game than the one the guest plays.
        case wrongGame
        /// A code this program does not know, sent by a newer host.
        case other
    }

    /// What kind of failure this is.
    public let code: Code
    /// One sentence that says what went wrong and how to fix it.
    public let message: String

    /// The error this one was made from, if any: for logs and debugging, not for the user.
    public let underlying: (any Error)?

    /// Creates an error. Prefer the named constructors, which keep the sentences consistent.
    public init(_ code: Code, _ message: String) {
        self.init(code, message, underlying: nil)
    }

    /// Creates an error made from `underlying`, which it keeps as its cause.
    public init(_ code: Code, _ message: String, underlying: (any Error)?) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }
}
