import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// A player's place in one game: the guest side of the game, what the player sees of it, and
/// what the player types while in it.
///
/// Made before the invitation goes out, so that nothing the host sends right after letting
/// the player in is missed.
public final class PlayerSeat: PlayerScreen, GuestSeat, LinkedSeat, Sendable {
    /// Where the player reads and types.
    public var console: any Console { repl.console }
    let game: GuestGame
    private let repl: GuestREPL
    private let link: SeatLink
    private let players: PlayerListViewModel
    private let observations = ObservationBag()
    /// Guesses sent whose verdict (or refusal) has not arrived yet.
    private let unanswered = Watched(0)
    private var host: PeerID? { link.host }
    private var listedName: String { link.listedName }

    init(repl: GuestREPL) {
        self.repl = repl
        game = GuestGame(session: repl.session)
        link = SeatLink(session: repl.session, console: repl.console, inbox: repl.inbox, style: repl.text.style)
        players = PlayerListViewModel(sessionEvents: repl.session.events, gameEvents: game.events)
        // Back in after a drop: said as the session connects, so before what the host then sends.
        observations.add(contentsOf: [link.observeReconnected(), link.observeResent()])
    }

    /// How the seat was given up (meaningful once the REPL has left it).
    var ending: SeatEnding { link.ending }

    /// Guess-the-number's request: it names no game, as every earlier player's.
    func joinRequest(resumeAfter: UInt64?) -> JoinRequest { JoinRequest(resumeAfter: resumeAfter) }

    /// Sits down at `host`'s game, listed as `listedName`. Waits briefly for the welcome, so
    /// that the player reads the round first and lines typed meanwhile are answered after it.
    /// - Parameter rejoin: how to get back in if the link drops while the host holds the seat;
    ///   nil: a drop ends the seat.
    func start(host: PeerID, listedAs listedName: String, rejoin: Reconnection.Rejoin?) async {
        link.sit(at: host, listedAs: listedName, rejoin: rejoin)
        repl.console.setPrompt("guess> ")
        repl.console.print("Joined \(self.listedName)'s game. Type a number to guess, anything else to chat; /help for more.")
        if let code = repl.session.verificationCode(with: host) {
            repl.console.print(repl.text.verificationCode(code, host: self.listedName))  // the name the game was joined under
        }
        // What the host sent meanwhile waited in the stream: shown from here, after the lines above.
        link.read(game.updates) { [weak self] event in self?.show(event) }
        await game.view(until: { $0.isWelcomed }, before: .now + .seconds(3))
    }

    /// Stops following the game (the session stays up).
    func stop() {
        link.stop()
        observations.cancelAll()
        players.stop()
        game.stop()
    }

    /// What the player does with one event while in the game.
    func handle(_ event: AppEvent) async -> CommandFlow { await link.handle(event, in: self) }

    func typed(_ line: String) async -> CommandFlow {
        if let command = CommandTable.parse(line, for: .player) {
            if !link.isReconnecting { await waitForAnswers() }
            return await command.perform(on: self, console: console)
        }
        if Submission(line: line) != .ignored, link.keepWhileDown(line) { return .stay }
        if link.isReconnecting { return .stay }
        do {
            if case .guess = try game.submit(line: line) { unanswered.withLock { $0 += 1 } }
        } catch { console.print(error.message) }
        return .stay
    }

    var seatHold: Duration? { game.view.seatHold }
    var resumePoint: UInt64? { game.view.resumePoint }
    func showFinalScores() { console.print(repl.text.finalScores(game.scoreboard)) }

    func catchingUp() -> @Sendable () async -> Void {
        let (room, before) = (game.room, game.room.current)
        return { [self] in await link.catchUp(with: room, since: before, text: repl.text) }
    }

    /// Waits (briefly) until every guess sent has been answered, so that what a command shows
    /// comes after the verdicts on the guesses typed before it, as it would from the host.
    private func waitForAnswers() async {
        await unanswered.wait(until: { $0 == 0 }, before: .now + .seconds(2))
    }

    // MARK: Commands

    /// The players of the game: the host is not one of them.
    public func showPlayers() {
        console.print(repl.text.players(players.rows.filter { $0.id != host?.identity }))
    }

    public func showHistory() { console.print(repl.text.history(game.history, round: game.view.round, previous: game.previousRound)) }

    public func showScore() { console.print(repl.text.scoreboard(game.scoreboard)) }

    /// What a typed line does in guess-the-number, for `/help`.
    public var gameHelp: GameHelp { .guessTheNumber }

    /// `/name NEW`.
    public func rename(to name: String) {
        do { try game.rename(to: name) } catch { console.print(error.message) }
    }

    /// `/leave`: says goodbye to the host.
    public func leave() { link.leave() }

    /// `/quit`, or the end of input: says goodbye to the host.
    public func quit() { link.quit() }

    // MARK: What the player sees

    /// Prints what `event` tells the player, in order, and notes the answers to this player's
    /// guesses.
    private func show(_ event: GuestGameEvent) {
        let text = repl.text
        switch event {
        case .welcomed(let welcome): console.print(text.welcome(welcome))
        case .item(let item):
            if let line = text.item(item, host: game.host?.identity) { console.print(line) }
            if case .verdict(let verdict) = item, text.isMe(verdict.player) { answered() }
        case .fairness(let check): console.print(text.fairness(check))
        case .caughtUp(let caughtUp): if let line = text.caughtUp(caughtUp) { console.print(line) }
        case .error(let error):
            console.print(error.message)
            answered()
        case .omitted: break
        case .hostLeft(let change):
            // A drop from a host that holds seats: the REPL tries to get back in (it decides
            // there, in order after the seat was taken, whether it can).
            link.hostLeft(change, holdsSeats: game.view.seatHold != nil)
        }
    }

    private func answered() { unanswered.withLock { $0 = max(0, $0 - 1) } }
}
