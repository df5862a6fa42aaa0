import EventBus
import Foundation
import Logging
import Multipeer
import Rooms
@testable import GuessnumGame

/// A guest's side of the game: sends guesses and chat to the host, keeps its view of the
/// round, the history and the scores, and checks every reveal against the host's commitment.
///
/// Create it before inviting the host (`host` nil: the first peer to connect, or to send a
/// welcome, is taken as the host), so that the host's welcome cannot arrive unobserved. Created
/// later with the host given, it asks the host for a fresh welcome.
///
/// ```swift
/// let game = GuestGame(session: session)
/// _ = try await session.invite(endpoint)
/// let verdicts = game.events.observe(.verdict) { print($0.displayText) }
/// try game.submit(line: "50")
/// ```
///
/// Observers of ``events`` run on the session's threads: ``EventName/welcomed``,
/// ``EventName/verdict``, ``EventName/chat``, ``EventName/playerJoined``,
/// ``EventName/playerLeft``, ``EventName/playerRenamed``, ``EventName/roundWon``,
/// ``EventName/roundStarted``, ``EventName/scoreboardChanged``,
/// ``EventName/fairnessChecked``, ``EventName/guessesOmitted``, ``EventName/caughtUp``,
/// ``EventName/gameError`` and ``EventName/hostLeft``.
///
/// It is a room guest of ``GuessRules`` (``Rooms/RoomGuest``), which keeps the host's order and
/// logs what it handles on its own; this adds guess-the-number's view of the game.
public final class GuestGame: Sendable {
    /// The guest's session.
    public let session: Session
    /// Where the guest posts what a user interface shows, each kind under its own name.
    public let events: EventBus
    /// Everything this guest is told, in order, as one typed stream (buffered up to a limit;
    /// read it or leave it): what a screen presents. It ends when the guest stops.
    public let updates: AsyncStream<GuestGameEvent>
    private let continuation: AsyncStream<GuestGameEvent>.Continuation
    /// The room's guest this game is: what it knows of the room, its waits, its catch-up.
    public var room: RoomGuest<GuessRules> { guest }
    private let guest: RoomGuest<GuessRules>
    private let keeper: GuestViewKeeper

    /// Starts following the game hosted by `host` (nil: whoever this session connects to).
    /// - Parameter logger: where the game logs; by default a logger labelled `guessnum.game`.
    public init(session: Session, host: PeerID? = nil, events: EventBus = EventBus(), logger: Logger = Logger(label: "guessnum.game")) {
        self.session = session
        self.events = events
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
        keeper = GuestViewKeeper(bus: events, continuation: continuation)
        guest = RoomGuest(session: session, host: host, logger: logger, observer: keeper)
    }

    /// Stops following the game. The session stays connected.
    public func stop() {
        guest.stop()
        continuation.finish()
    }

    deinit {
        stop()
    }

    // MARK: View

    /// Everything this guest knows of the game.
    public var view: GuestView { keeper.view.value }
    /// The host, once known.
    public var host: PeerID? { guest.current.host }

    /// Waits until the view meets `condition` (at once if it does now) or `deadline` passes; the
    /// view then. Nothing polls: the condition is checked as each message changes the view.
    @discardableResult
    public func view(until condition: @escaping @Sendable (GuestView) -> Bool, before deadline: ContinuousClock.Instant) async -> GuestView {
        await keeper.view.wait(until: condition, before: deadline)
    }
    /// The current round's range, once welcomed.
    public var range: GuessRange? { view.range }
    /// The current round's number (0 before the welcome).
    public var round: Int { view.round }
    /// The recent judgements of the current round.
    public var history: [Judgement] { view.history }
    /// The round before the current one, as this guest saw it; nil until a round starts after
    /// the welcome.
    public var previousRound: FinishedRound? { view.previousRound }
    /// The top of the scoreboard.
    public var scoreboard: [Scoreboard.Entry] { view.scoreboard }
    /// The verdict on this guest's last guess.
    public var lastVerdict: JudgedGuess? { view.lastVerdict }
    /// Round number → whether the host was honest in it.
    public var fairnessChecks: [Int: FairnessCheck] { view.fairnessChecks }

    // MARK: Sending

    /// Sends what a typed line means: a whole number is a guess, blank is nothing, anything
    /// else is chat.
    /// - Returns: what the line was taken for.
    /// - Throws: ``Rooms/GameError/Code/notJoined``, ``Rooms/GameError/Code/chatTooLong``,
    ///   ``Rooms/GameError/Code/sendFailed``.
    @discardableResult
    public func submit(line: String) throws(GameError) -> Submission {
        let submission = Submission(line: line)
        switch submission {
        case .guess(let number): try guess(number)
        case .tooLarge(let text): throw .numberTooLarge(text, range: view.range)
        case .chat(let text): try say(text)
        case .ignored: break
        }
        return submission
    }

    /// Guesses `number`.
    /// - Throws: ``Rooms/GameError/Code/notJoined``, ``Rooms/GameError/Code/sendFailed``.
    public func guess(_ number: Int64) throws(GameError) {
        try guest.play(number)
    }

    /// Says `text` to everyone.
    /// - Throws: ``Rooms/GameError/Code/chatTooLong``, ``Rooms/GameError/Code/notJoined``,
    ///   ``Rooms/GameError/Code/sendFailed``.
    public func say(_ text: String) throws(GameError) {
        try guest.say(text)
    }

    /// Asks to be shown as `name` (the host may add a number to keep it unique).
    /// - Throws: ``Rooms/GameError/Code/invalidName``, ``Rooms/GameError/Code/notJoined``,
    ///   ``Rooms/GameError/Code/sendFailed``.
    public func rename(to name: String) throws(GameError) {
        try guest.rename(to: name)
    }

    /// Asks the host for a fresh welcome.
    /// - Throws: ``Rooms/GameError/Code/notJoined``, ``Rooms/GameError/Code/sendFailed``.
    public func requestWelcome() throws(GameError) {
        try guest.requestWelcome()
    }

    /// Asks the host for what this guest missed (back after a drop): a replay of the items after
    /// the last one it has, or a fresh welcome if the host no longer keeps them.
    ///
    /// From the moment the link to the host is lost, broadcasts wait until what was missed has
    /// come (a host that noticed the drop sends it by itself; one that did not needs this
    /// request), so that none carries the guest past it.
    /// - Throws: ``Rooms/GameError/Code/notJoined``, ``Rooms/GameError/Code/sendFailed``.
    public func requestCatchUp() throws(GameError) {
        try guest.requestCatchUp()
    }

    /// Stops waiting for what was missed during a drop: the broadcasts held since (see
    /// ``requestCatchUp()``) are taken in and posted now, and the items missed before them are
    /// not shown.
    public func takeInHeldBroadcasts() {
        guest.takeInHeldBroadcasts()
    }
}
