import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Logging
import Multipeer
import SafeText

/// The host's side of a game at the terminal: it listens, advertises, shows what happens and
/// takes the host's commands and chat.
///
/// Everything it reacts to arrives through one ``Inbox``; ``run(port:)`` handles the events
/// one at a time until the host quits.
public final class HostREPL: GameScreen, Sendable {
    /// Where the host reads and types.
    public let console: any Console
    let session: Session
    let master: GameMaster
    let inbox: Inbox
    let text: GameText
    let asks: Bool
    private let advertiser: Advertiser
    private let advertising: AdvertisementRefresher
    private let players: PlayerListViewModel
    private let questions = JoinQuestions()
    private let logger: Logger

    /// A host REPL for `master`'s game.
    /// - Parameters:
    ///   - discovery: where the game is announced (Avahi in the program, in-memory in tests).
    ///   - asks: whether the host is asked before each player is let in (`--ask`).
    public init(
        master: GameMaster, console: any Console, inbox: Inbox, discovery: any DiscoveryBackend,
        text: GameText, asks: Bool, logger: Logger = Logger(label: "guessnum.app")
    ) {
        self.session = master.session
        self.master = master
        self.console = console
        self.inbox = inbox
        self.text = text
        self.asks = asks
        self.logger = logger
        advertiser = Advertiser(session: session, serviceType: GameAdvertisement.serviceType, discovery: discovery)
        advertising = AdvertisementRefresher(advertiser: advertiser, master: master)
        players = PlayerListViewModel(sessionEvents: session.events, gameEvents: master.events)
    }

    /// Listens on `port` (0: any free port), announces the game and serves it until the host
    /// quits (`/quit`, Ctrl-D at a terminal, a signal); then says goodbye to everyone.
    public func run(port: Int) async throws(MultipeerError) {
        let boundPort = try await session.startListening(port: port, policy: policy())
        let observations = ObservationBag()
        observations.add(contentsOf: observeGame())
        master.start()
        try await advertiser.update(master.advertisement.discoveryInfo)
        do { try await advertiser.start() } catch { console.print(error.message) }
        console.print("Hosting \(master.host.displayText)'s game: numbers \(master.range), up to \(master.configuration.maximumPlayers) players. "
            + "Players join with `guessnum join` (listed as \(master.host.displayText)) or directly: guessnum join \(LocalAddress.bestGuess()):\(boundPort)")
        console.print("Type /help for commands; anything else is chat.")
        for await event in inbox.events {
            if await handle(event) == .quit { break }
        }
        questions.declineAll()
        master.stop()
        await advertiser.stop()
        await session.disconnect(reason: "the host ended the game")
        observations.cancelAll()
    }

    /// What the host does with one event.
    func handle(_ event: AppEvent) async -> CommandFlow {
        switch event {
        case .typed(let line):
            if questions.answer(line, console: console) { return .stay }
            if let command = CommandTable.parse(line, for: .host) { return await command.perform(on: self) }
            let chat = line.trimmingCharacters(in: .whitespaces)
            if !chat.isEmpty {
                do { try master.sendChat(chat) } catch { console.print(error.message) }
            }
            return .stay
        case .inputEnded:
            // At a terminal (Ctrl-D) that means quit; a script's input may end while the host
            // keeps serving, until a signal.
            return console.isInteractive ? .quit : .stay
        case .signal:
            return .quit
        case .gamesChanged, .hostLeft, .timer:
            return .stay
        }
    }

    // MARK: Who may join

    private func policy() -> InvitationPolicy {
        let master = master
        let full = "the game is full"
        if asks {
            let questions = questions
            let console = console
            return .ask { invitation in
                if master.isFull { return .decline(reason: full) }
                return await questions.ask(invitation, console: console)
            }
        }
        return .custom { _ in master.isFull ? .decline(reason: full) : .accept }
    }

    // MARK: What the host sees

    private func observeGame() -> [EventObservation] {
        let console = console
        let text = text
        let events = master.events
        let advertising = advertising
        let logger = logger
        return [
            events.observe(.verdict) { console.print(text.verdict($0)) },
            events.observe(.chat) { chat in if !text.isMe(chat.from) { console.print(text.chat(chat)) } },
            events.observe(.playerJoined) { console.print(text.joined($0)); advertising.refresh() },
            events.observe(.playerLeft) { console.print(text.left($0)); advertising.refresh() },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.roundWon) { console.print(text.roundWon($0)) },
            events.observe(.roundStarted) { console.print(text.roundStarted($0)); advertising.refresh() },
            session.events.observe(.advertiserEvent) { event in
                switch event {
                case .renamed(let name): console.print("Another game on the LAN is called that; this one is listed as “\(TerminalText.sanitized(name))”.")
                case .failed(let error):
                    console.print(error.message)
                    logger.info("Announcing the game failed.", metadata: ["code": "\(error.code)"])
                case .established: logger.debug("The game is announced on the LAN.")
                }
            },
        ]
    }

    // MARK: Commands

    public func showPlayers() { console.print(text.players(players.rows)) }

    public func showHistory() { console.print(text.history(master.history)) }

    public func showScore() { console.print(text.scoreboard(master.scoreboard.ranked)) }

    /// `/visible on|off`.
    func setVisible(_ visible: Bool) async {
        guard visible else {
            await advertiser.stop()
            console.print("The game is hidden from `guessnum join`; players stay, and direct joins still work.")
            return
        }
        do {
            try await advertiser.start()
            console.print("The game is visible on the LAN again.")
        } catch { console.print(error.message) }
    }

    /// `/new [RANGE]`.
    func startNewRound(range rangeText: String?) {
        do {
            let range = try rangeText.map { text throws(GameError) in try GuessRange(parsing: text) }
            try master.newRound(range: range)
        } catch { console.print(error.message) }
    }

    /// `/kick NAME`.
    func kick(_ name: String) {
        do {
            let player = try master.remove(named: name)
            console.print("\(player.displayText) was removed.")
        } catch { console.print(error.message) }
    }
}
