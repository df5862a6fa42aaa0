import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// A player's place in a game, whatever the game: the room's guest side, what the game's
/// presenter shows of it, and what the player types.
///
/// Everything the host sends arrives as one typed stream (``Rooms/RoomGuest/events``), read by
/// one task the seat owns; the lines it prints and the moves the presenter plays by itself
/// follow it in order. Made before the invitation goes out, so that nothing the host sends right
/// after letting the player in is missed.
final class RoomSeat<Presenter: GamePresenter>: PlayerScreen, GuestSeat, LinkedSeat, Sendable {
    typealias Rules = Presenter.Rules

    var console: any Console { repl.console }
    private let repl: GuestREPL
    private let guest: RoomGuest<Rules>
    private let link: SeatLink
    private let screen = Mutex(Screen())
    private let observations = ObservationBag()
    /// Moves sent that the host has not answered yet (with a reply, a refusal or a view).
    private let unanswered = Watched(0)

    /// What the player has been shown, and the presenter that showed it.
    private struct Screen {
        var presenter = Presenter()
        var shown: Rules.View?
    }

    init(repl: GuestREPL) {
        self.repl = repl
        guest = RoomGuest(session: repl.session)
        link = SeatLink(session: repl.session, console: repl.console, inbox: repl.inbox, style: repl.text.style)
        let (guest, link) = (guest, link)
        observations.add(contentsOf: [
            link.observeReconnected(),
            link.observeResent(),
            repl.session.events.observe(.stateChanged) { change in
                // The host as seated, or (before the seat is taken) as the room guest met it.
                guard change.state == .notConnected, change.peer.identity == (link.host ?? guest.current.host)?.identity else { return }
                link.hostLeft(change, holdsSeats: guest.current.seatHold != nil)
            },
        ])
    }

    var ending: SeatEnding { link.ending }
    var endedAt: ContinuousClock.Instant? { link.endedAt }

    func joinRequest(resumeAfter: UInt64?) -> JoinRequest {
        JoinRequest(resumeAfter: resumeAfter, playing: Rules.kind)
    }

    var gameHelp: GameHelp { .room(screen.withLock(\.presenter)) }

    func start(host: PeerID, listedAs name: String, rejoin: Reconnection.Rejoin?) async {
        link.sit(at: host, listedAs: name, rejoin: rejoin)
        let (prompt, howToPlay) = screen.withLock { ($0.presenter.prompt, $0.presenter.howToPlay) }
        console.setPrompt(prompt)
        console.complete(also: Presenter.commands.map(\.name))
        console.print("Joined \(link.listedName)'s game of \(Rules.kind.title). \(howToPlay) /help for more.")
        if let code = repl.session.verificationCode(with: host) {
            console.print(repl.text.verificationCode(code, host: link.listedName))
        }
        // What the host sent meanwhile waited in the stream: shown from here, after the lines above.
        link.read(guest.events) { [weak self] event in self?.show(event) }
        await guest.state(until: { $0.isWelcomed }, before: .now + .seconds(3))
    }

    func stop() {
        link.stop()
        observations.cancelAll()
        guest.stop()
    }

    // MARK: Events

    func handle(_ event: AppEvent) async -> CommandFlow { await link.handle(event, in: self) }

    func typed(_ line: String) async -> CommandFlow {
        if let command = GameCommand.typed(line, among: Presenter.commands) {
            guard let view = guest.current.view else { return .stay }
            console.print(repl.text.presented(command.lines(view)))
            return .stay
        }
        if let command = CommandTable.parse(line, for: .player) {
            // What a command shows comes after the answers to the moves typed before it.
            if !link.isReconnecting { await unanswered.wait(until: { $0 == 0 }, before: .now + .seconds(2)) }
            return await command.perform(on: self, console: console)
        }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !link.keepWhileDown(line), !link.isReconnecting else { return .stay }
        let view = guest.current.view
        do throws(GameError) {
            switch screen.withLock({ $0.presenter.input(trimmed, in: view) }) {
            case .play(let move):
                // Counted before it goes: its answer may come back before `play` returns.
                unanswered.withLock { $0 += 1 }
                do throws(GameError) { try guest.play(move) } catch {
                    answered()
                    throw error
                }
            case .chat: try guest.say(trimmed)
            case .answer(let sentence): console.print(sentence)
            }
        } catch { console.print(error.message) }
        return .stay
    }

    var seatHold: Duration? { guest.current.seatHold }
    var resumePoint: UInt64? { guest.current.isWelcomed ? guest.current.lastSequence : nil }
    func showFinalScores() {
        let presenter = screen.withLock(\.presenter)
        console.print(repl.text.finalScores(guest.current.scores, of: players, presenter: presenter))
    }

    func catchingUp() -> @Sendable () async -> Void {
        let before = guest.current
        return { [self] in await link.catchUp(with: guest, since: before, text: repl.text) }
    }

    /// Prints what `event` tells the player, and plays what the presenter plays by itself.
    private func show(_ event: RoomGuestEvent<Rules>) {
        let text = repl.text
        var lines: [ScreenLine] = []
        var view: Rules.View?
        // A welcome shows the whole game: after a restarted host's, the board may be as the
        // player last saw it, and "the game is shown as it is now" must be followed by it.
        var isWelcome = false
        switch event {
        case .welcomed(let welcome):
            isWelcome = true
            lines = text.screenLines(screen.withLock { $0.presenter.lines(forWelcome: welcome, to: text.reader) }, as: "welcome", welcome)
            view = welcome.view
        case .item(let item):
            lines = screen.withLock { text.item(item, presenter: &$0.presenter, host: link.host?.identity) }
        case .view(let fresh):
            view = fresh
            answered()
        case .reply(let event):
            lines = text.screenLines(screen.withLock { $0.presenter.lines(for: event, to: text.reader) }, as: "reply", event)
            answered()
        case .refused(let refusal):
            lines = [.event("refused", refusal) { refusal.message }]
            answered()
        case .error(let error):
            lines = [ScreenLine(error.message)]
            answered()
        case .caughtUp(let missed): lines = text.caughtUp(CaughtUp(missed: missed)).map { [$0] } ?? []
        case .replyCopy, .omitted: break  // shown already; counted lines are not listed
        case .hostLeft: break  // the session's own event says how (see init)
        }
        var automatic: Rules.Move?
        if let view {
            let shown = screen.withLock { screen -> [GameLine] in
                defer { screen.shown = view }
                automatic = screen.presenter.automaticMove(in: view)
                return screen.presenter.lines(for: view, before: isWelcome ? nil : screen.shown, to: text.reader)
            }
            lines += text.screenLines(shown, as: "view", view)
        }
        console.print(lines)
        if let automatic {
            do { try guest.play(automatic) } catch { console.print(error.message) }
        }
    }

    private func answered() { unanswered.withLock { $0 = max(0, $0 - 1) } }

    // MARK: Commands

    /// The players in the game as this player knows them, this player included (the host is
    /// not one of them).
    private var players: [PlayerRef] {
        let current = guest.current
        var players = current.players
        if let you = current.you, !players.contains(where: { $0.id == you.id }) { players.append(you) }
        return players.filter { $0.id != link.host?.identity }
    }

    func showPlayers() {
        let (current, presenter, players) = (guest.current, screen.withLock(\.presenter), players)
        console.print(repl.text.roomPlayers(
            players, scores: current.scores, presenter: presenter, unlisted: max(0, current.playerCount - players.count), isAway: current.away.contains))
    }

    func showHistory() {
        let (events, presenter) = (Array(guest.current.gameEvents.suffix(20)), screen.withLock(\.presenter))
        let lines = presenter.history(of: events, to: repl.text.reader)
        console.print(lines.isEmpty ? "Nothing has happened in the game yet." : repl.text.presented(lines))
    }

    func showScore() {
        let presenter = screen.withLock(\.presenter)
        console.print(repl.text.scores(guest.current.scores, of: players, presenter: presenter))
    }

    func rename(to name: String) {
        do { try guest.rename(to: name) } catch { console.print(error.message) }
    }

    func leave() { link.leave() }

    func quit() { link.quit() }
}
