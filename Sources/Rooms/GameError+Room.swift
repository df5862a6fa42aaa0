import Multipeer
import SafeText

/// The sentences of the room layer, in one place: names, chat, budgets, admission, passwords,
/// and a guest's link to its host.
extension GameError {
    /// No player removed by the host was called `name`.
    public static func noSuchRemovedPlayer(_ name: String) -> GameError {
        GameError(.noSuchPlayer, "Nobody called \(TerminalText.quoted(name)) was removed from this game.")
    }

    /// No player in the game is called `name`.
    public static func noSuchPlayer(_ name: String) -> GameError {
        GameError(.noSuchPlayer, "There is no player called \(TerminalText.quoted(name)); /players lists them.")
    }

    /// A configuration value that makes no sense.
    public static func invalidConfiguration(_ problem: String) -> GameError {
        GameError(.invalidConfiguration, "The game configuration is invalid: \(problem).")
    }

    /// A guest that plays `asked` at a host that runs `hosted`.
    public static func wrongGame(hosted: GameKind, asked: String) -> GameError {
        GameError(.wrongGame, "this room plays \(hosted.title), not \(TerminalText.quoted(asked)); a guessnum that knows \(hosted.title) can join it")
    }

    /// Moves faster than the host allows.
    public static func movesThrottled(perSecond rate: Double) -> GameError {
        GameError(.throttled, "slow down: at most \(rateText(rate)) moves a second; the extra moves were not played.")
    }

    /// A display name that broke the rules (the session's sentence, under the game's code).
    public static func invalidName(_ error: MultipeerError) -> GameError {
        GameError(.invalidName, error.message, underlying: error)
    }

    /// A name that starts like a chat line on screen.
    public static func nameLooksLikeChat(_ name: String) -> GameError {
        GameError(.invalidName, "The name \(TerminalText.quoted(name)) starts with “\(RoomProtocol.chatLineMark)”, which marks chat lines on screen; choose a name that starts with another character.")
    }

    /// A chat line above the length limit.
    public static func chatTooLong(_ length: Int, limit: Int) -> GameError {
        GameError(.chatTooLong, "The chat line is \(length) characters long, above the limit of \(limit); split it into shorter lines.")
    }

    /// A chat line above the size limit in bytes (accented, combined and non-Latin characters
    /// take several bytes each).
    public static func chatTooManyBytes(_ bytes: Int, limit: Int) -> GameError {
        GameError(.chatTooLong, "The chat line takes \(bytes) bytes, above the limit of \(limit) bytes (accents, combining marks and many scripts take several bytes a character); split it into shorter lines.")
    }

    /// Chat lines faster than the host allows.
    public static func chatThrottled(perSecond rate: Double) -> GameError {
        GameError(.throttled, "slow down: at most \(rateText(rate)) chat lines a second; the extra lines were not relayed.")
    }

    /// A guest disconnected for sending far more messages than the host accepts.
    public static func messageFlood(perSecond rate: Double) -> GameError {
        GameError(.throttled, "You sent far more messages than the host accepts (at most \(rateText(rate)) a second), so it disconnected you.")
    }

    /// A guest turned away because the game is full.
    public static func gameFull(_ limit: Int) -> GameError {
        GameError(.gameFull, "The game is full with \(limit) player\(limit == 1 ? "" : "s"); try again when someone leaves.")
    }

    /// A guest turned away because `limit` players already come from its network address.
    public static func tooManyFromAddress(_ limit: Int) -> GameError {
        GameError(.tooManyFromAddress, "The game already has \(limit) player\(limit == 1 ? "" : "s") from your network address, as many as it admits from one; try again when one of them leaves.")
    }

    /// A password that is empty.
    public static var emptyPassword: GameError {
        GameError(.invalidPassword, "The password is empty.")
    }

    /// A password longer than `limit` UTF-8 bytes.
    public static func passwordTooLong(limit: Int) -> GameError {
        GameError(.invalidPassword, "The password is longer than \(limit) bytes; pick a shorter one.")
    }

    /// A guest that asked to join a private game without a password.
    public static var passwordNeeded: GameError {
        GameError(.passwordNeeded, "This game is private: it needs the host's password.")
    }

    /// Which of `kinds` a host that declined a player of `asked` with `declineReason` plays,
    /// when the reason is ``wrongGame(hosted:asked:)``'s: so a player who did not know the game
    /// (joining by code or address) can ask again for the right one.
    public static func hostedGame(declining declineReason: String?, asked: String, among kinds: [GameKind]) -> GameKind? {
        kinds.first { wrongGame(hosted: $0, asked: asked).message == declineReason }
    }

    /// Whether a host's decline says its game is private and the guest sent no password
    /// exchange: the one decline reason a guest acts on (it asks for the password and invites
    /// again), so it is this exact sentence on the wire (PROTOCOL.md, the game's appendix).
    public static func asksForPassword(_ declineReason: String?) -> Bool {
        declineReason == passwordNeeded.message
    }

    /// A guest whose password is not the game's.
    public static var wrongPassword: GameError {
        GameError(.wrongPassword, "Wrong password for this game.")
    }

    /// A guest from an address that sent `limit` wrong passwords within `period`.
    public static func tooManyWrongPasswords(_ limit: Int, period: Duration) -> GameError {
        GameError(.tooManyWrongPasswords, "\(limit) wrong passwords came from your network address in the last \(Int(period.components.seconds)) s; wait a minute, then try again.")
    }

    /// A guest turned away because `limit` wrong passwords came from everywhere together within
    /// `period` (someone is guessing from many addresses).
    public static func tooManyWrongPasswordsOverall(_ limit: Int, period: Duration) -> GameError {
        GameError(.tooManyWrongPasswords, "The game had \(limit) wrong passwords in the last \(Int(period.components.seconds)) s, from several addresses; it takes no more guesses for a minute. Try again then.")
    }

    /// A guest whose password exchange is not one (a malformed share).
    public static var malformedPasswordExchange: GameError {
        GameError(.wrongPassword, "The password exchange this program sent is not valid; update both programs to the same release.")
    }

    /// A host of a private game that could not prove it knows the password the guest typed.
    public static func passwordNotConfirmed(host: String) -> GameError {
        GameError(.passwordNotConfirmed, "\(host) could not prove it knows this password: either the password is wrong, or this is not the game you meant (someone may be posing as it). Nothing the password could be tested against was sent; check it and try again.")
    }

    /// A host listed as private that accepted without asking for the password.
    public static func passwordNotAsked(host: String) -> GameError {
        GameError(.passwordNotConfirmed, "\(host) let you in without asking for the password of its private game: it is not the game it claims to be. Not joined.")
    }

    /// A guest that has no host to talk to.
    public static var notJoined: GameError {
        GameError(.notJoined, "There is no game to send to yet; join a host first and wait for its welcome.")
    }

    /// A guest whose host has left.
    public static func hostGone(_ host: PeerID) -> GameError {
        GameError(.notJoined, "The host \(TerminalText.quoted(host.displayName)) is no longer connected, so nothing was sent; join a game again.")
    }

    /// A send the session refused.
    public static func sendFailed(_ error: MultipeerError) -> GameError {
        GameError(.sendFailed, error.message, underlying: error)
    }

    /// An error received from the host, with a code this program may not know.
    public static func received(code: String, message: String) -> GameError {
        GameError(Code(rawValue: code) ?? .other, message)
    }

    /// A rate as the sentences say it: "5", "0.5".
    package static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int64(rate)) : String(rate)
    }
}
