import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText

/// A player's place in one game: the guest side of the game, what the player sees of it, and
/// what the player types while in it.
///
/// Made before the invitation goes out, so that nothing the host sends right after letting
/// the player in is missed.
public final class PlayerSeat: GameScreen, @unchecked Sendable {
    // @unchecked: `host` is set once by `start(host:)`, before any event is handled, on the
    // task that runs the REPL; the observers only touch Sendable values.

    /// Where the player reads and types.
    public var console: any Console { repl.console }
    let game: GuestGame
    private let repl: GuestREPL
    private let players: PlayerListViewModel
    private let observations = ObservationBag()
    private var host: PeerID?

    init(repl: GuestREPL) {
        self.repl = repl
        game = GuestGame(session: repl.session)
        players = PlayerListViewModel(sessionEvents: repl.session.events, gameEvents: game.events)
        observations.add(contentsOf: Self.observe(game, console: repl.console, text: repl.text, inbox: repl.inbox))
    }

    /// Sits down at `host`'s game. Waits briefly for the welcome, so that the player reads the
    /// round first and lines typed meanwhile are answered after it.
    func start(host: PeerID) async {
        self.host = host
        repl.console.setPrompt("guess> ")
        repl.console.print("Joined \(TerminalText.sanitized(host.displayName))'s game. Type a number to guess, anything else to chat; /help for more.")
        let deadline = ContinuousClock.now + .seconds(3)
        while !game.view.isWelcomed, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops following the game (the session stays up).
    func stop() {
        observations.cancelAll()
        players.stop()
        game.stop()
    }

    /// What the player does with one event while in the game.
    func handle(_ event: AppEvent) async -> CommandFlow {
        switch event {
        case .typed(let line):
            if let command = CommandTable.parse(line, for: .player) { return await command.perform(on: self) }
            do { _ = try game.submit(line: line) } catch { console.print(error.message) }
            return .stay
        case .hostLeft(let why):
            console.print(why)
            return .leave
        case .inputEnded, .signal:
            quit()
            return .quit
        case .gamesChanged, .timer:
            return .stay
        }
    }

    // MARK: Commands

    public func showPlayers() { console.print(repl.text.players(players.rows)) }

    public func showHistory() { console.print(repl.text.history(game.history)) }

    public func showScore() { console.print(repl.text.scoreboard(game.scoreboard)) }

    /// `/name NEW`.
    func rename(to name: String) {
        do { try game.rename(to: name) } catch { console.print(error.message) }
    }

    /// `/leave`: says goodbye to the host.
    func leave() {
        guard let host else { return }
        repl.session.disconnect(host, reason: nil)
        console.print("You left \(TerminalText.sanitized(host.displayName))'s game.")
    }

    /// `/quit`, or the end of input: says goodbye to the host.
    func quit() {
        if let host { repl.session.disconnect(host, reason: nil) }
    }

    // MARK: What the player sees

    private static func observe(_ game: GuestGame, console: any Console, text: GameText, inbox: Inbox) -> [EventObservation] {
        let events = game.events
        return [
            events.observe(.welcomed) { console.print(text.welcome($0)) },
            events.observe(.verdict) { console.print(text.verdict($0)) },
            events.observe(.chat) { chat in if !text.isMe(chat.from) { console.print(text.chat(chat)) } },
            events.observe(.playerJoined) { console.print(text.joined($0)) },
            events.observe(.playerLeft) { console.print(text.left($0)) },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.roundWon) { console.print(text.roundWon($0)) },
            events.observe(.roundStarted) { console.print(text.roundStarted($0)) },
            events.observe(.fairnessChecked) { console.print(text.fairness($0)) },
            events.observe(.gameError) { console.print($0.message) },
            events.observe(.hostLeft) { change in
                let reason = switch change.reason {
                case .goodbye(let said?): "The host left: \(TerminalText.sanitized(said))."
                case .lost(let error): "The connection to the host was lost: \(error.message)"
                default: "The host left."
                }
                inbox.post(.hostLeft(reason))
            },
        ]
    }
}
