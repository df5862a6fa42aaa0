import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerAvahi

/// The player's side at the terminal: the list of games nearby, joining one, and playing.
final class GuestREPL: Sendable {
    let session: Session
    let console: any Console
    let style: TextStyle
    let timeout: Duration
    let json: Bool
    private let games: GameList

    init(session: Session, console: any Console, style: TextStyle, json: Bool, timeout: Duration) {
        self.session = session
        self.console = console
        self.style = style
        self.json = json
        self.timeout = timeout
        games = GameList(style: style)
    }

    private enum Ending { case quit, leave, hostGone }

    /// Plays until the user quits; returns the failure to report, if any.
    func run(direct endpoint: Endpoint?, gameName: String?) async -> CLIError? {
        let inbox = GuestInbox(console: console)
        defer { inbox.close() }
        var items = inbox.items.makeAsyncIterator()
        if let endpoint {
            console.print("Connecting to \(endpoint)…")
            let game = follow(inbox: inbox)
            do {
                switch try await session.invite(endpoint, timeout: timeout) {
                case .connected(let host):
                    _ = await play(game, host: host, inbox: inbox, items: &items)
                    return nil
                case .declined(let reason):
                    unfollow(game)
                    return CLIError("The host turned you away\(reason.map { ": \(TerminalText.sanitized($0))" } ?? "").", exitCode: 3)
                case .timedOut:
                    unfollow(game)
                    return CLIError("The host did not answer within \(MultipeerError.secondsText(timeout)).", exitCode: 3)
                }
            } catch {
                unfollow(game)
                return CLIError(error.message, exitCode: 1)
            }
        }
        return await browse(for: gameName, inbox: inbox, items: &items)
    }

    // MARK: The list of games

    private func browse(for gameName: String?, inbox: GuestInbox, items: inout AsyncStream<GuestInbox.Item>.Iterator) async -> CLIError? {
        let browser = Browser(serviceType: try! ServiceType("guessnum"), localPeer: session.localPeer, discovery: AvahiDiscovery())
        let console = console
        let games = games
        let watching = browser.events.observe(.browserEvent) { event in
            if case .failed(let error) = event {
                console.print(error.message + " To join a game whose address you know: guessnum join HOST:PORT")
                return
            }
            if games.apply(event), games.isShowing { console.print(games.render()) }
            inbox.post(.gamesChanged)
        }
        defer { watching.cancel() }
        /// Stops browsing quietly (no "0 found" on the way out).
        func finish() async {
            watching.cancel()
            await browser.stop()
        }
        do { try await browser.start() } catch { console.print(error.message) }
        console.setPrompt("join> ")
        console.print(gameName.map { "Looking for the game “\(TerminalText.sanitized($0))”…" } ?? games.render() + "\nType the number of a game to join it; /help for more.")
        let deadline = ContinuousClock.now + timeout
        var tried: Set<PeerID> = []
        while true {
            if let gameName, let wanted = games.named(gameName), !tried.contains(wanted.peer) {
                tried.insert(wanted.peer)
                switch await join(wanted, inbox: inbox, items: &items) {
                case .quit: await finish(); return nil
                case .leave, .hostGone: console.setPrompt("join> "); console.print(games.render())
                case nil: await finish(); return CLIError("Could not join “\(TerminalText.sanitized(gameName))”.", exitCode: 3)
                }
                continue
            }
            let item: GuestInbox.Item?
            if let gameName {
                let remaining = deadline - .now
                guard remaining > .zero else {
                    await finish()
                    return CLIError("No game called “\(TerminalText.sanitized(gameName))” was found within \(MultipeerError.secondsText(timeout)).", exitCode: 3)
                }
                item = await next(&items, within: remaining, inbox: inbox)
            } else {
                item = await items.next()
            }
            switch item {
            case .line(let line):
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let number = Int(trimmed) {
                    guard let chosen = games.entry(number) else {
                        console.print("There is no game number \(number); \(games.isEmpty ? "none has been found yet." : "pick one from the list.")")
                        continue
                    }
                    if await join(chosen, inbox: inbox, items: &items) == .quit { await finish(); return nil }
                    console.setPrompt("join> ")
                    console.print(games.render())
                } else if trimmed == "/quit" {
                    await finish()
                    return nil
                } else if trimmed.isEmpty {
                    continue
                } else {
                    console.print("Type the number of a game to join it, or /quit. Games appear here as they are found.")
                }
            case .endOfInput where gameName != nil:
                continue  // a script that names its game may have no more to say
            case .endOfInput, .signal, nil:
                await finish()
                return nil
            case .gamesChanged, .hostLeft:
                continue
            }
        }
    }

    /// Waits for the next item, or for `limit` to pass (then returns `.gamesChanged` so the
    /// caller looks at the clock again).
    private func next(_ items: inout AsyncStream<GuestInbox.Item>.Iterator, within limit: Duration, inbox: GuestInbox) async -> GuestInbox.Item? {
        let wake = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { inbox.post(.gamesChanged) }
        }
        defer { wake.cancel() }
        return await items.next()
    }

    /// Invites the host of `game`; plays if let in. Nil when the host could not be joined.
    private func join(_ game: DiscoveredPeer, inbox: GuestInbox, items: inout AsyncStream<GuestInbox.Item>.Iterator) async -> Ending? {
        let hostName = TerminalText.sanitized(game.peer.displayName)
        console.print("Joining \(hostName)…")
        let followed = follow(inbox: inbox)
        do {
            switch try await session.invite(game, timeout: timeout) {
            case .connected(let host):
                return await play(followed, host: host, inbox: inbox, items: &items)
            case .declined(let reason):
                console.print("\(hostName) turned you away\(reason.map { ": \(TerminalText.sanitized($0))" } ?? "").")
            case .timedOut:
                console.print("\(hostName) did not answer within \(MultipeerError.secondsText(timeout)).")
            }
        } catch {
            console.print(error.message)
        }
        unfollow(followed)
        return nil
    }

    /// A game being followed: the guest side, what the player sees, and the player list.
    private struct Followed {
        let guest: GuestGame
        let observations: [EventObservation]
        let players: PlayerListViewModel
    }

    /// Ready before the invitation goes out, so that nothing the host sends right after
    /// letting the player in is missed.
    private func follow(inbox: GuestInbox) -> Followed {
        let guest = GuestGame(session: session)
        return Followed(guest: guest, observations: observe(guest, inbox: inbox),
                        players: PlayerListViewModel(sessionEvents: session.events, gameEvents: guest.events))
    }

    private func unfollow(_ game: Followed) {
        for observation in game.observations { observation.cancel() }
        game.players.stop()
        game.guest.stop()
    }

    // MARK: Playing

    private func play(
        _ game: Followed, host: PeerID, inbox: GuestInbox, items: inout AsyncStream<GuestInbox.Item>.Iterator
    ) async -> Ending {
        let guest = game.guest
        let players = game.players
        defer { unfollow(game) }
        games.isShowing = false
        defer { games.isShowing = true }
        console.setPrompt("guess> ")
        console.print("Joined \(TerminalText.sanitized(host.displayName))'s game. Type a number to guess, anything else to chat; /help for more.")
        // Lines typed before the welcome wait for it (briefly), so the player reads the round
        // first and its own first guess is shown in full.
        _ = await waitUntil(within: .seconds(3)) { guest.view.isWelcomed }
        while true {
            switch await items.next() {
            case .line(let line):
                switch SlashCommand.parse(line, role: .guest) {
                case nil:
                    do { _ = try guest.submit(line: line) } catch { console.print(error.message) }
                case .help?: console.print(SlashCommand.help(for: .guest))
                case .players?: console.print(text(for: guest).players(players.rows))
                case .history?: console.print(text(for: guest).history(guest.history))
                case .score?: console.print(text(for: guest).scoreboard(guest.scoreboard))
                case .rename(let name)?:
                    do { try guest.rename(to: name) } catch { console.print(error.message) }
                case .leave?:
                    session.disconnect(host, reason: nil)
                    console.print("You left \(TerminalText.sanitized(host.displayName))'s game.")
                    return .leave
                case .quit?:
                    session.disconnect(host, reason: nil)
                    return .quit
                case .unknown(let name)?: console.print("There is no command \(TerminalText.sanitized(name)); /help lists them.")
                case .usage(let hint)?: console.print(hint)
                case .visible?, .newRound?, .kick?: console.print("That is a command for the host; /help lists yours.")
                }
            case .hostLeft(let why):
                console.print(why)
                return .hostGone
            case .endOfInput, .signal, nil:
                session.disconnect(host, reason: nil)
                return .quit
            case .gamesChanged:
                continue
            }
        }
    }

    private func waitUntil(within limit: Duration, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    private func text(for guest: GuestGame) -> GameText {
        GameText(style: style, json: json, me: session.localPeer.identity)
    }

    private func observe(_ guest: GuestGame, inbox: GuestInbox) -> [EventObservation] {
        let console = console
        let text = text(for: guest)
        let events = guest.events
        return [
            events.observe(.welcomed) { welcome in
                console.print("Welcome, \(welcome.you.displayText)! Round \(welcome.game.round): numbers \(welcome.game.range).")
            },
            events.observe(.verdict) { console.print(text.verdict($0)) },
            events.observe(.chat) { line in if !text.isMe(line.from) { console.print(text.chat(line)) } },
            events.observe(.playerJoined) { console.print(text.joined($0)) },
            events.observe(.playerLeft) { console.print(text.left($0)) },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.roundWon) { console.print(text.roundWon($0)) },
            events.observe(.roundStarted) { console.print(text.roundStarted($0)) },
            events.observe(.fairnessChecked) { console.print(text.fairness($0)) },
            events.observe(.gameError) { console.print($0.message) },
            events.observe(.hostLeft) { change in
                let reason: String
                switch change.reason {
                case .goodbye(let said?): reason = "The host left: \(TerminalText.sanitized(said))."
                case .lost(let error): reason = "The connection to the host was lost: \(error.message)"
                default: reason = "The host left."
                }
                inbox.post(.hostLeft(reason))
            },
        ]
    }
}
