import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerAvahi
import Synchronization

/// The host's side of a game at the terminal: it listens, advertises, shows what happens and
/// takes the host's commands and chat.
final class HostREPL: Sendable {
    let session: Session
    let master: GameMaster
    let console: any Console
    let text: GameText
    let maxPlayers: Int
    let asks: Bool
    private let advertiser: Advertiser
    private let players: PlayerListViewModel
    private let questions = JoinQuestions()
    private let advertising = Mutex<(pending: Bool, running: Bool)>((false, false))

    init(session: Session, master: GameMaster, console: any Console, style: TextStyle, json: Bool, maxPlayers: Int, asks: Bool) {
        self.session = session
        self.master = master
        self.console = console
        self.maxPlayers = maxPlayers
        self.asks = asks
        text = GameText(style: style, json: json, me: master.host.id)
        advertiser = Advertiser(session: session, serviceType: try! ServiceType("guessnum"), discovery: AvahiDiscovery())
        players = PlayerListViewModel(sessionEvents: session.events, gameEvents: master.events)
    }

    func run(port: Int) async throws(MultipeerError) {
        let boundPort = try await session.startListening(port: port, policy: policy())
        let observations = observeGame()
        master.start()
        try await advertiser.update(facts())
        do { try await advertiser.start() } catch { console.print(error.message) }
        console.print("Hosting \(master.host.displayText)'s game: numbers \(master.range), up to \(maxPlayers) players. "
            + "Players join with `guessnum join` (listed as \(master.host.displayText)) or directly: guessnum join \(LocalAddress.bestGuess()):\(boundPort)")
        console.print("Type /help for commands; anything else is chat.")
        await readCommands()
        questions.declineAll()
        master.stop()
        await advertiser.stop()
        await session.disconnect(reason: "the host ended the game")
        withExtendedLifetime(observations) {}
    }

    // MARK: Who may join

    private func policy() -> InvitationPolicy {
        let master = master
        let maxPlayers = maxPlayers
        if asks {
            let questions = questions
            let console = console
            return .ask { invitation in
                if master.playerCount >= maxPlayers { return .decline(reason: "the game is full") }
                return await questions.ask(invitation, console: console)
            }
        }
        return .custom { _ in master.playerCount >= maxPlayers ? .decline(reason: "the game is full") : .accept }
    }

    // MARK: What the host sees

    private func observeGame() -> [EventObservation] {
        let console = console
        let text = text
        let events = master.events
        let refresh: @Sendable () -> Void = { [weak self] in self?.refreshAdvertisement() }
        return [
            events.observe(.verdict) { console.print(text.verdict($0)) },
            events.observe(.chat) { line in if !text.isMe(line.from) { console.print(text.chat(line)) } },
            events.observe(.playerJoined) { console.print(text.joined($0)); refresh() },
            events.observe(.playerLeft) { console.print(text.left($0)); refresh() },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.roundWon) { console.print(text.roundWon($0)) },
            events.observe(.roundStarted) { console.print(text.roundStarted($0)); refresh() },
            session.events.observe(.advertiserEvent) { event in
                switch event {
                case .renamed(let name): console.print("Another game on the LAN is called that; this one is listed as “\(TerminalText.sanitized(name))”.")
                case .failed(let error): console.print(error.message)
                case .established: break
                }
            },
        ]
    }

    /// What `guessnum join` lists: range, players and round (kept well within 200 bytes).
    private func facts() -> DiscoveryInfo {
        let entries = ["r": "\(master.range.lowerBound)..\(master.range.upperBound)", "p": "\(master.playerCount)/\(maxPlayers)", "n": "\(master.roundNumber)"]
        return (try? DiscoveryInfo(entries)) ?? DiscoveryInfo()
    }

    /// Brings the advertised facts up to date: one update task at a time, each publishing the
    /// facts as they are when it runs, at most once a second (so a burst of joins costs one
    /// mDNS announcement, and a stale count can never land last).
    private func refreshAdvertisement() {
        let start = advertising.withLock { state in
            state.pending = true
            defer { state.running = true }
            return !state.running
        }
        guard start else { return }
        Task { [self] in
            while true {
                advertising.withLock { $0.pending = false }
                try? await advertiser.update(facts())
                try? await Task.sleep(for: .seconds(1))
                let again = advertising.withLock { state in
                    if !state.pending { state.running = false }
                    return state.pending
                }
                if !again { return }
            }
        }
    }

    // MARK: What the host types

    /// Reads the host's lines until /quit, Ctrl-D at a terminal, or SIGINT/SIGTERM.
    private func readCommands() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.readLines() }
            group.addTask { await Signals.wait() }
            await group.next()
            group.cancelAll()
        }
    }

    private func readLines() async {
        for await line in console.lines {
            if questions.answer(line, console: console) { continue }
            guard let command = SlashCommand.parse(line, role: .host) else {
                let chat = line.trimmingCharacters(in: .whitespaces)
                if !chat.isEmpty { report { () throws(GameError) in try master.sendChat(chat) } }
                continue
            }
            if await perform(command) == .quit { return }
        }
        // Input ended. At a terminal (Ctrl-D) that means quit; when scripted, keep serving
        // until a signal (which the caller also waits for).
        if console is ReadlineConsole { return }
        await Signals.wait()
    }

    private enum Flow { case stay, quit }

    private func perform(_ command: SlashCommand) async -> Flow {
        switch command {
        case .help: console.print(SlashCommand.help(for: .host))
        case .players: console.print(text.players(players.rows))
        case .history: console.print(text.history(master.history))
        case .score: console.print(text.scoreboard(master.scoreboard.ranked))
        case .quit: return .quit
        case .visible(true):
            do {
                try await advertiser.start()
                console.print("The game is visible on the LAN again.")
            } catch { console.print(error.message) }
        case .visible(false):
            await advertiser.stop()
            console.print("The game is hidden from `guessnum join`; players stay, and direct joins still work.")
        case .newRound(let rangeText):
            do {
                let range = try rangeText.map { text throws(GameError) in try GuessRange(parsing: text) }
                try master.newRound(range: range)
            } catch { console.print(error.message) }
        case .kick(let name):
            guard let player = master.players.first(where: { $0.player.name == name }) else {
                console.print("There is no player called “\(TerminalText.sanitized(name))”; /players lists them.")
                break
            }
            session.disconnect(player.peer, reason: "the host removed you from the game")
            console.print("\(player.player.displayText) was removed.")
        case .unknown(let name): console.print("There is no command \(TerminalText.sanitized(name)); /help lists them.")
        case .usage(let hint): console.print(hint)
        case .leave, .rename: console.print("That is a command for players; /help lists the host's.")
        }
        return .stay
    }

    private func report(_ body: () throws(GameError) -> Void) {
        do { try body() } catch { console.print(error.message) }
    }
}
