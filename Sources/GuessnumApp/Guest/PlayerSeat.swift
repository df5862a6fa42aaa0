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
public final class PlayerSeat: GameScreen, @unchecked Sendable {
    // @unchecked: `host` and `listedName` are set once by `start(host:listedAs:)`, before any
    // event is handled, on the task that runs the REPL; everything else is Sendable.

    /// How a seat was given up.
    enum Ending: Sendable, Equatable {
        /// The player left (`/leave`, `/quit`, the end of input).
        case left
        /// The host removed the player.
        case removed
        /// The host ended the game.
        case ended
        /// The connection was lost, or the host left without saying why.
        case lost
    }

    /// Where the player reads and types.
    public var console: any Console { repl.console }
    let game: GuestGame
    private let repl: GuestREPL
    private let players: PlayerListViewModel
    private let observations = ObservationBag()
    private let state = Watched(SeatState())
    private var host: PeerID?
    private var listedName: String { state.withLock { $0.listedName } }

    private struct SeatState {
        /// Guesses sent whose verdict (or refusal) has not arrived yet.
        var unanswered = 0
        var ending = Ending.left
        var interrupts = InterruptTimer()
        /// The game's name as listed (or the host's name when joined by address).
        var listedName = "The host"
        /// How to get back in if the link drops; nil when the seat cannot be rejoined.
        var rejoin: Reconnection.Rejoin?
        /// The tries to get back in, while the link is down.
        var reconnection: Reconnection?
    }

    init(repl: GuestREPL) {
        self.repl = repl
        game = GuestGame(session: repl.session)
        players = PlayerListViewModel(sessionEvents: repl.session.events, gameEvents: game.events)
        observations.add(contentsOf: observe())
    }

    /// How the seat was given up (meaningful once the REPL has left it).
    var ending: Ending { state.withLock { $0.ending } }

    /// Sits down at `host`'s game, listed as `listedName`. Waits briefly for the welcome, so
    /// that the player reads the round first and lines typed meanwhile are answered after it.
    /// - Parameter rejoin: how to get back in if the link drops while the host holds the seat;
    ///   nil: a drop ends the seat.
    func start(host: PeerID, listedAs listedName: String, rejoin: Reconnection.Rejoin? = nil) async {
        self.host = host
        state.withLock {
            $0.listedName = TerminalText.sanitized(listedName)
            $0.rejoin = rejoin
        }
        repl.console.setPrompt("guess> ")
        repl.console.print("Joined \(self.listedName)'s game. Type a number to guess, anything else to chat; /help for more.")
        if let code = repl.session.verificationCode(with: host) {
            repl.console.print(repl.text.verificationCode(code, host: self.listedName))  // the name the game was joined under
        }
        await game.view(until: { $0.isWelcomed }, before: .now + .seconds(3))
    }

    /// Stops following the game (the session stays up).
    func stop() {
        takeReconnection()?.cancel()
        observations.cancelAll()
        players.stop()
        game.stop()
    }

    /// What the player does with one event while in the game.
    func handle(_ event: AppEvent) async -> CommandFlow {
        switch event {
        case .typed(let line):
            if let command = CommandTable.parse(line, for: .player) {
                if !isReconnecting { await waitForAnswers() }
                return await command.perform(on: self)
            }
            if let reconnection = state.withLock({ $0.reconnection }) {
                keep(line, in: reconnection)
                return .stay
            }
            do {
                if case .guess = try game.submit(line: line) { state.withLock { $0.unanswered += 1 } }
            } catch { console.print(error.message) }
            return .stay
        case .hostLeft(let why):
            console.print(why)
            if ending == .ended { console.print(repl.text.finalScores(game.scoreboard)) }
            return .leave
        case .inputEnded, .signal:
            quit()
            return .quit
        case .interrupted(let cleared):
            if state.withLock({ $0.interrupts.interrupt(clearedText: cleared) }) {
                quit()
                return .quit
            }
            if !cleared { console.print("To leave, press Ctrl-C again, press Ctrl-D or type /quit (/leave goes back to the list of games).") }
            return .stay
        case .linkLost(let why):
            if startReconnecting() { return .stay }
            // Dropped before the seat was taken (before it knew how to rejoin): as the host leaving.
            state.withLock { $0.ending = .lost }
            return await handle(.hostLeft(why))
        case .rejoin(let result):
            return await rejoined(result)
        case .gamesChanged, .timer:
            return .stay
        }
    }

    // MARK: A dropped link

    private var isReconnecting: Bool { state.withLock { $0.reconnection != nil } }

    /// The tries to get back in under way, if any; afterwards there are none.
    @discardableResult
    private func takeReconnection() -> Reconnection? {
        state.withLock { state in
            defer { state.reconnection = nil }
            return state.reconnection
        }
    }

    /// The link dropped while the host holds the seat: says so once and starts trying to get
    /// back; false when the seat cannot be rejoined (no way to rejoin was given).
    @discardableResult
    private func startReconnecting() -> Bool {
        if isReconnecting { return true }
        guard let hold = game.view.seatHold, let rejoin = state.withLock({ $0.rejoin }) else { return false }
        console.print(repl.text.style.dim("Lost the connection to \(listedName)'s game — reconnecting… (your seat is kept for \(MultipeerError.secondsText(hold)))"))
        let reconnection = Reconnection(hold: hold, resumeAfter: game.view.resumePoint, rejoin: rejoin, inbox: repl.inbox)
        state.withLock { $0.reconnection = reconnection }
        return true
    }

    /// What typing `line` while the link is down does: kept to be sent once back, or refused.
    private func keep(_ line: String, in reconnection: Reconnection) {
        guard Submission(line: line) != .ignored else { return }
        if reconnection.keep(line) {
            console.print(repl.text.style.dim("Not connected: this is sent when you are back in the game."))
        } else {
            console.print("Not sent: \(Reconnection.lineLimit) lines are waiting for the connection to come back already.")
        }
    }

    /// How trying to get back in ended: back in the game (sending what was typed meanwhile),
    /// or the seat given up with a sentence.
    private func rejoined(_ result: RejoinResult) async -> CommandFlow {
        guard let reconnection = takeReconnection() else { return .stay }
        let before = game.view
        switch result {
        case .back:
            // "Reconnected" was printed as the link came up (see observe()), before anything it brought.
            await catchUp(since: before)
            for line in reconnection.takeLines() { _ = await handle(.typed(line)) }
            return .stay
        case .declined(let reason):
            console.print(Sentence.saying("\(listedName) did not let you back in", reason))
        case .refused(let sentence):
            console.print(sentence)
        case .gaveUp:
            console.print("Could not get back into \(listedName)'s game within \(MultipeerError.secondsText(reconnection.hold)): the seat is given up.")
        }
        sayNotSent(reconnection.takeLines())
        state.withLock { $0.ending = .lost }
        return .leave
    }

    /// Says which lines typed while reconnecting were never sent, now that they will not be.
    private func sayNotSent(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let quoted = lines.map { "“\(TerminalText.sanitized($0))”" }.joined(separator: ", ")
        console.print("Not sent, as you are out of the game: \(quoted).")
    }

    /// How long a host that held the seat has to send what was missed by itself after a rejoin.
    static let catchUpWait: Duration = .seconds(1)

    /// Back in after a drop, waits until what was missed has arrived (a replay, or a fresh
    /// welcome where the host no longer kept it), so that the player reads the game as it is
    /// and the lines kept are answered after it. A host that had not noticed the drop took
    /// the new link for the old one and sends nothing by itself: after ``catchUpWait`` it is
    /// asked. `before` is the view when the link dropped.
    private func catchUp(since before: GuestView) async {
        let asked = ContinuousClock.now + Self.catchUpWait
        let (welcomes, replays) = (before.welcomes, before.replays)
        let caughtUp: @Sendable (GuestView) -> Bool = { $0.welcomes != welcomes || $0.replays != replays }
        var view = await game.view(until: caughtUp, before: asked)
        if !caughtUp(view) {
            try? game.requestCatchUp()
            view = await game.view(until: caughtUp, before: asked + .seconds(2))
        }
        if !caughtUp(view) {
            game.takeInHeldBroadcasts()  // nothing came: the game goes on from what does
        } else if view.welcomes > before.welcomes, view.replays == before.replays, view.lastSequence > before.lastSequence {
            console.print(repl.text.skipped(view.lastSequence - before.lastSequence))
        }
    }

    /// Waits (briefly) until every guess sent has been answered, so that what a command shows
    /// comes after the verdicts on the guesses typed before it, as it would from the host.
    private func waitForAnswers() async {
        await state.wait(until: { $0.unanswered == 0 }, before: .now + .seconds(2))
    }

    // MARK: Commands

    /// The players of the game: the host is not one of them.
    public func showPlayers() {
        console.print(repl.text.players(players.rows.filter { $0.id != host?.identity }))
    }

    public func showHistory() { console.print(repl.text.history(game.history, round: game.view.round, previous: game.previousRound)) }

    public func showScore() { console.print(repl.text.scoreboard(game.scoreboard)) }

    /// `/name NEW`.
    func rename(to name: String) {
        do { try game.rename(to: name) } catch { console.print(error.message) }
    }

    /// `/leave`: says goodbye to the host.
    func leave() {
        if let reconnection = takeReconnection() {
            reconnection.cancel()
            sayNotSent(reconnection.takeLines())
        }
        guard let host else { return }
        repl.session.disconnect(host, reason: nil)
        console.print("You left \(listedName)'s game.")
    }

    /// `/quit`, or the end of input: says goodbye to the host.
    func quit() {
        takeReconnection()?.cancel()
        if let host { repl.session.disconnect(host, reason: nil) }
    }

    // MARK: What the player sees

    private func observe() -> [EventObservation] {
        let console = repl.console
        let text = repl.text
        let inbox = repl.inbox
        let events = game.events
        let state = state
        let answered: @Sendable () -> Void = { state.withLock { $0.unanswered = max(0, $0.unanswered - 1) } }
        return [
            events.observe(.welcomed) { console.print(text.welcome($0)) },
            events.observe(.verdict) { verdict in
                console.print(text.verdict(verdict))
                if text.isMe(verdict.player) { answered() }
            },
            events.observe(.chat) { [game] chat in
                if !text.isMe(chat.from) { console.print(text.chat(chat, fromHost: chat.from.id == game.host?.identity)) }
            },
            events.observe(.playerJoined) { console.print(text.joined($0)) },
            events.observe(.playerLeft) { console.print(text.left($0)) },
            // The player's own away and back lines (in a replay) say what the player knows already.
            events.observe(.playerAway) { if !text.isMe($0.player) { console.print(text.away($0)) } },
            events.observe(.playerBack) { if !text.isMe($0.player) { console.print(text.back($0)) } },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.roundWon) { console.print(text.roundWon($0)) },
            events.observe(.roundStarted) { console.print(text.roundStarted($0)) },
            events.observe(.fairnessChecked) { console.print(text.fairness($0)) },
            events.observe(.caughtUp) { if let line = text.caughtUp($0) { console.print(line) } },
            events.observe(.gameError) { error in
                console.print(error.message)
                answered()
            },
            // Back in after a drop: said as the session connects, so before what the host then sends.
            repl.session.events.observe(.stateChanged) { [game] change in
                guard change.state == .connected, change.peer.identity == game.host?.identity,
                      let name = state.withLock({ $0.reconnection != nil ? $0.listedName : nil }) else { return }
                console.print(text.style.dim("Reconnected to \(name)'s game."))
            },
            events.observe(.hostLeft) { [game] change in
                guard change.reason != .localDisconnect else { return }  // this player left
                let (ending, sentence) = Self.ending(change, host: state.withLock { $0.listedName })
                // A drop (not a goodbye) from a host that holds seats: the REPL tries to get back in
                // (it decides there, in order after the seat was taken, whether it can).
                if case .lost = change.reason, game.view.seatHold != nil {
                    inbox.post(.linkLost(sentence))
                    return
                }
                state.withLock { $0.ending = ending }
                inbox.post(.hostLeft(sentence))
            },
        ]
    }

    /// How the host's leaving ends the seat, and the sentence that says so.
    static func ending(_ change: PeerStateChange, host: String) -> (Ending, String) {
        switch change.reason {
        case .goodbye(GameMaster.removalReason?): (.removed, "You were removed from the game by the host.")
        case .goodbye(GameMaster.endReason?): (.ended, "\(host) ended the game.")
        case .goodbye(let said?) where said.hasSuffix("."):
            // A whole sentence: a full game, a bad name, a flood cut off.
            (.lost, "The host closed the link: \(TerminalText.sanitized(said))")
        case .goodbye(let said?): (.lost, "The host left: \(TerminalText.sanitized(said)).")
        case .lost(let error): (.lost, "The connection to the host was lost: \(error.message)")
        default: (.lost, "The host left.")
        }
    }
}
