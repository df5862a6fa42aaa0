import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Logging
import Multipeer
import SafeText
import Synchronization

/// The host's side of a game at the terminal: it listens, advertises, shows what happens and
/// takes the host's commands and chat.
///
/// Everything it reacts to arrives through one ``Inbox``; ``run(port:ports:)`` handles the events
/// one at a time until the host quits.
public final class HostREPL: HostScreen, Sendable {
    /// Where the host reads and types.
    public let console: any Console
    let session: Session
    let room: any HostedRoom
    let inbox: Inbox
    let text: GameText
    let asks: Bool
    private let advertiser: Advertiser
    private let advertising: AdvertisementRefresher
    private let questions: JoinQuestions
    private let logger: Logger
    /// How players are told to run the program ("guessnum", or its path when not on PATH).
    private let command: String
    /// The person's identity announced with the game (``HostSetup/owner``).
    private let owner: UUID?
    private let prompts = Mutex(Prompts())
    /// What the host is told about the name the game is listed under.
    private let listing: Protected<ListingNotices>

    /// What the host was asked or did at the prompt.
    private struct Prompts {
        /// Whether the host was asked to confirm ending the game for the players in it.
        var confirmingEnd = false
        var interrupts = InterruptTimer()
    }

    /// A host REPL for `room`'s game, told by `presenter`'s sentences.
    /// - Parameters:
    ///   - discovery: where the game is announced (Avahi in the program, in-memory in tests).
    ///   - asks: whether the host is asked before each player is let in (`--ask`).
    ///   - command: how players run the program, in the join command the host prints.
    ///   - owner: the person's identity announced with the game (``HostSetup/owner``).
    public convenience init<Presenter: GamePresenter>(
        room: RoomHost<Presenter.Rules>, presenter: Presenter.Type, console: any Console, inbox: Inbox, discovery: any DiscoveryBackend,
        text: GameText, asks: Bool, command: String = "guessnum", owner: UUID? = nil, logger: Logger = Logger(label: "guessnum.app")
    ) {
        self.init(
            room: PlayedRoom<Presenter>(room: room), console: console, inbox: inbox, discovery: discovery, text: text, asks: asks,
            command: command, owner: owner, logger: logger)
        console.complete(also: Presenter.commands.map(\.name))
    }

    init(
        room: any HostedRoom, console: any Console, inbox: Inbox, discovery: any DiscoveryBackend,
        text: GameText, asks: Bool, command: String, owner: UUID? = nil, logger: Logger
    ) {
        self.command = command
        self.session = room.session
        questions = JoinQuestions(clock: room.session.clock)
        self.room = room
        self.console = console
        self.inbox = inbox
        self.text = text
        self.asks = asks
        self.logger = logger
        listing = Protected(ListingNotices(name: room.host.name))
        advertiser = Advertiser(session: session, serviceType: GameAdvertisement.serviceType, discovery: discovery)
        self.owner = owner
        advertising = AdvertisementRefresher(advertiser: advertiser) { GameAdvertisement.announcing(owner: owner, in: room.discoveryInfo) }
    }

    /// Listens on `port` (0: any free port; nil: the port of the last game in `ports` if it is
    /// free, else any), announces the game and serves it until the host quits (`/quit`, Ctrl-D
    /// at a terminal, a signal); then says goodbye to everyone.
    /// - Parameter ports: where the port listened on is remembered for the next game.
    public func run(port: Int?, ports: ListeningPortMemory? = nil) async throws(MultipeerError) {
        let boundPort: Int
        let wished = port ?? ports?.last ?? 0
        do {
            boundPort = try await session.startListening(port: wished, policy: policy())
        } catch where port == nil && wished != 0 && error.code == .listenFailed {
            boundPort = try await session.startListening(port: 0, policy: policy())  // taken since: any other
        }
        ports?.remember(boundPort)
        let observations = ObservationBag()
        observations.add(contentsOf: observeListing())
        let advertising = advertising
        let stopWatching = room.observe(console: console, text: text) { advertising.refresh() }
        room.start()
        try await advertiser.update(GameAdvertisement.announcing(owner: owner, in: room.discoveryInfo))
        var listed = true
        do { try await advertiser.start() } catch {
            console.print(error.message)
            listed = false
        }
        let addresses = LocalAddresses.current()
        let direct = "\(command) join \(addresses.bestForDirectJoin):\(boundPort)"
        let code = JoinCode(identity: session.localPeer.identity, port: boundPort, addresses: addresses.forJoinCode)
        let hosting = "Hosting \(room.host.displayText)'s game: \(room.summary), up to \(room.maximumPlayers) players. "
        console.print(hosting + (listed
            ? "Players join with `\(command) join` or directly: \(direct)"
            : "Players cannot find it in the list while discovery is unavailable; they join directly: \(direct)"))
        if !code.addresses.isEmpty {
            console.print("Where the list cannot reach (another network, Wi-Fi that blocks discovery), players join with this code, which also proves it is your game: \(command) join \(code.text)")
        }
        if let leftOut = addresses.leftOutText { console.print(text.style.dim("Not announced, as players could not use them: \(leftOut).")) }
        for line in listing.withLock({ $0.bannerPrinted() }) { console.print(line) }
        if room.isPrivate { console.print("The game is private: players need your password to join.") }
        console.print("Type /help for commands; anything else is chat.")
        for await event in inbox.events {
            if await handle(event) == .quit { break }
        }
        questions.declineAll()
        room.stop()
        console.print(room.finalScores(text: text))
        await advertising.stop()
        await advertiser.stop()
        await session.disconnect(reason: RoomProtocol.endReason)
        observations.cancelAll()
        stopWatching()
    }

    /// What the host does with one event.
    func handle(_ event: AppEvent) async -> CommandFlow {
        switch event {
        case .typed(let line):
            if prompts.withLock({ $0.confirmingEnd }) {
                prompts.withLock { $0.confirmingEnd = false }
                if YesAnswer.isYes(line) { return .quit }
                console.print("The game goes on.")
                return .stay
            }
            if questions.answer(line, console: console) { return .stay }
            if let lines = room.gameCommand(line) {
                console.print(text.presented(lines))
                return .stay
            }
            if let command = CommandTable.parse(line, for: .host) { return await command.perform(on: self, console: console) }
            let chat = line.trimmingCharacters(in: .whitespaces)
            if !chat.isEmpty {
                do { try room.say(chat) } catch { console.print(error.message) }
            }
            return .stay
        case .inputEnded:
            // At a terminal Ctrl-D ends the game (after asking, with players in; a second Ctrl-D
            // is a yes); a script's input may end while the host keeps serving, until a signal.
            guard console.isInteractive else { return .stay }
            if prompts.withLock({ $0.confirmingEnd }) { return .quit }
            let flow = requestEnd()
            if flow == .stay { console.resumeInput() }
            return flow
        case .interrupted(let cleared):
            // A Ctrl-C that only cleared a half-typed line does nothing more. Otherwise it is
            // one more way to end, like Ctrl-D and /quit: with players in, at a terminal, it asks
            // (and while asked, a Ctrl-C is a yes, as a second Ctrl-D is); in an empty game the
            // first says how to end, a second within a few seconds ends.
            guard !cleared else { return .stay }
            if prompts.withLock({ $0.confirmingEnd }) { return .quit }
            if console.isInteractive, room.playerCount > 0 { return requestEnd() }
            if prompts.withLock({ $0.interrupts.interrupt(clearedText: false) }) { return .quit }
            console.print("To end the game, press Ctrl-C again, press Ctrl-D or type /quit.")
            return .stay
        case .signal:
            return .quit
        case .gamesChanged, .hostLeft, .linkLost, .rejoin, .timer:
            return .stay
        }
    }

    // MARK: Who may join

    private func policy() -> InvitationPolicy {
        let room = room
        if asks {
            let questions = questions
            let console = console
            return .ask { invitation in
                // Who could not join anyway is not asked about; who may is asked first, then
                // admitted (a private game's password exchange is charged only then).
                let early = room.admission(of: invitation.peer, from: invitation.remoteAddress)
                guard early == .accept else { return early }
                let answer = await questions.ask(invitation, console: console)
                guard answer == .accept else { return answer }
                return room.admission(of: invitation)
            }
        }
        return .custom { invitation in room.admission(of: invitation) }
    }

    // MARK: What the host sees

    private func observeListing() -> [EventObservation] {
        let console = console
        let logger = logger
        let listing = listing
        return [
            session.events.observe(.advertiserEvent) { event in
                switch event {
                case .renamed(let name): for line in listing.withLock({ $0.renamed(name) }) { console.print(line) }
                case .failed(let error):
                    console.print(error.message)
                    logger.info("Announcing the game failed.", metadata: ["code": "\(error.code)"])
                case .established:
                    logger.debug("The game is announced on the LAN.")
                    for line in listing.withLock({ $0.established() }) { console.print(line) }
                }
            },
        ]
    }

    // MARK: Commands

    public var gameHelp: GameHelp { room.gameHelp }

    public func showPlayers() { console.print(room.players(text: text)) }

    public func showHistory() { console.print(room.history(text: text)) }

    public func showScore() { console.print(room.scores(text: text)) }

    /// `/quit`, Ctrl-D or Ctrl-C at a terminal: ends the game, after asking when a person at a
    /// terminal would end it for players.
    public func requestEnd() -> CommandFlow {
        let players = room.playerCount
        guard console.isInteractive, players > 0 else { return .quit }
        prompts.withLock { $0.confirmingEnd = true }
        console.print("\(GameText.count(players, "player is", "players are")) in the game. End it for everyone? [y/n] (Ctrl-C or Ctrl-D: yes)")
        return .stay
    }

    /// `/visible on|off`.
    public func setVisible(_ visible: Bool) async {
        guard visible != advertiser.isAdvertising else {
            console.print(visible ? "The game is already visible on the LAN." : "The game is already unannounced.")
            return
        }
        guard visible else {
            await advertiser.stop()
            console.print("The game is no longer announced: `guessnum join` lists it only to players who joined it before (it answers where they found it), and joins by code or address still work; players stay. To keep newcomers out, use --password or --ask.")
            return
        }
        do {
            try await advertiser.start()
            console.print("The game is visible on the LAN again.")
        } catch { console.print(error.message) }
    }

    /// `/new [RANGE]`.
    public func startNewRound(range rangeText: String?) {
        do { try room.newRound(range: rangeText) } catch { console.print(error.message) }
    }

    /// `/kick NAME`: says whom it removed (their address and key), as other rows may share the name.
    public func kick(_ name: String) {
        do {
            let removal = try room.remove(named: name)
            let minutes = Int(room.removalPeriod.components.seconds / 60)
            let name = removal.player.displayText
            let barred = removal.address == nil ? "under that name" : "under that name or from that address"
            console.print("\(GameText.removed(removal)) was removed, and cannot join again for \(GameText.count(minutes, "minute")), \(barred) (/unkick \(name) lets them back).")
        } catch { console.print(error.message) }
    }

    /// `/unkick NAME`: lifts every removal under that name (a removal bars the name, so lifting one
    /// of two would let nobody of that name back) and says whom, with their addresses.
    public func unkick(_ name: String) {
        do {
            let lifted = try room.readmit(named: name)
            let whom = lifted.map(GameText.removed)
            let list = whom.count == 1 ? whom[0] : whom.dropLast().joined(separator: ", ") + " and " + whom[whom.count - 1]
            console.print("\(list) may join again" + (lifted.contains { $0.address != nil } ? ", from any address." : "."))
        } catch { console.print(error.message) }
    }
}
