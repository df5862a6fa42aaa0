import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The player's side at the terminal: the list of games nearby, joining one, and playing.
///
/// Everything it reacts to arrives through one ``Inbox``, handled one event at a time by
/// ``handle(_:)``: in the list of games (the lobby) a number joins a game; in a game the
/// ``PlayerSeat`` takes guesses, chat and commands.
public final class GuestREPL: CommandContext, @unchecked Sendable {
    // @unchecked: the mutable state (`seat`, `tried`, `outcome`) is only touched by the task
    // that runs `run(direct:gameName:)`; observers and timers only post to the inbox.

    /// Where the player reads and types.
    public let console: any Console
    let session: Session
    let inbox: Inbox
    let text: GameText
    let timeout: Duration
    private let discovery: any DiscoveryBackend
    private let games: GameList
    private let knownHosts: KnownHosts?
    private let rememberedGames: RememberedGames?
    /// The password for private games that the environment gave, if any.
    private let password: GamePassword?
    /// What the next line typed answers, if the player was asked something.
    private var question: Question?

    /// A question to the player about joining a game.
    private enum Question {
        /// Its host proved another key than before: join anyway? (yes or no)
        case newKey(JoinTarget)
        /// It is private: the password (typed hidden).
        case password(JoinTarget, acceptingNewKey: Bool)

        /// The game the question is about.
        var target: JoinTarget {
            switch self {
            case .newKey(let target), .password(let target, _): target
            }
        }
    }

    /// How the program ends: nil for success, or the failure to report.
    private var outcome: AppFailure?
    /// The game being played, if any, and the listed game it is in (nil when joined by address).
    private var seat: (any GuestSeat)?
    private var seatGame: PeerID?
    private var interrupts = InterruptTimer()
    /// With `--game NAME`: the game wanted, when to give up, and (once it is listed) when it has
    /// been listed for ``nameSettling`` with no lookalike beside it.
    private var wanted: (name: String, deadline: ContinuousClock.Instant, settled: ContinuousClock.Instant?)?
    private var tried: Set<PeerID> = []
    /// The list of games nearby, once it is open: from the start, or (joined by code or
    /// address at a terminal) once the player is out of the game.
    private var lobby: Lobby?
    /// The timers set with ``wake(after:)``: they end when the list of games closes.
    private var timers: [Task<Void, Never>] = []

    /// What keeps the list of games up to date while it is open.
    private struct Lobby {
        let browser: Browser
        let watching: EventObservation
        let probing: Task<Void, Never>?
        /// Checks again, while the list is shown, the games it marks as not answering.
        let checking: Task<Void, Never>
    }

    /// A player REPL on `session`.
    /// - Parameters:
    ///   - discovery: where games are found (Avahi in the program, in-memory in tests).
    ///   - timeout: how long a host may take to answer, and `--game` to be found.
    ///   - knownHosts: the hosts played with before and their keys; nil remembers none.
    ///   - rememberedGames: the games joined before and where, tried directly when discovery
    ///     does not list them; nil remembers none.
    ///   - password: the password of private games (from the environment); without it the
    ///     player is asked at a terminal, and scripts cannot join private games.
    public init(
        session: Session, console: any Console, inbox: Inbox, discovery: any DiscoveryBackend, text: GameText, timeout: Duration,
        knownHosts: KnownHosts? = nil, rememberedGames: RememberedGames? = nil, password: GamePassword? = nil
    ) {
        self.session = session
        self.knownHosts = knownHosts
        self.rememberedGames = rememberedGames
        self.password = password
        self.console = console
        self.inbox = inbox
        self.discovery = discovery
        self.text = text
        self.timeout = timeout
        games = GameList(style: text.style, knownHosts: knownHosts)
    }

    /// Plays until the player quits: at `endpoint` if given, otherwise from the list of games
    /// nearby (joining the game called `gameName` as soon as it is found, if given). Returns
    /// the failure to report, if any.
    public func run(direct endpoint: Endpoint?, gameName: String?) async -> AppFailure? {
        if let endpoint { return await run(at: endpoint) }
        await openLobby()
        if let gameName {
            wanted = (gameName, .now + timeout, nil)
            wake(after: timeout)
            console.print("Looking for the game “\(TerminalText.sanitized(gameName))”…")
            games.isShowing = true
            if let changes = games.changeLines() { console.print(changes) }  // the games (or why none can be found) once
        } else {
            console.print(games.wholeListLines())
            console.print(Self.lobbyHint)
        }
        if await joinWantedGame() != .quit { await loop() }
        await closeLobby()
        return outcome
    }

    /// Plays at the game of the host that `code` names, at the addresses it carries (tried in
    /// order); a host that does not prove the code's identity is refused before anything is sent
    /// to it. Returns the failure to report, if any.
    public func run(code: JoinCode) async -> AppFailure? {
        console.print("Connecting to the host of this join code (\(code.addresses.joined(separator: ", ")), port \(code.port))…")
        guard let target = JoinTarget.code(code) else { return AppFailure("This join code is damaged.", .usage) }
        return await play(target)
    }

    /// Plays at the game at `endpoint`: the key its host proves there is learned first, and the
    /// game is then joined as that host's, as a join code's would be (the same key check, the
    /// same password question).
    private func run(at endpoint: Endpoint) async -> AppFailure? {
        console.print("Connecting to \(endpoint)…")
        let key: PeerFingerprint?
        do {
            key = try await session.identify(endpoint, timeout: timeout)
        } catch {
            return AppFailure(error)  // unreachable (1) or not answering (3): the kind of its code
        }
        guard let key, let target = JoinTarget.address(endpoint, key: key) else { return await runUnproved(at: endpoint) }
        return await play(target)
    }

    /// Joins `target` (a code's or an address's game) and plays until the player quits.
    private func play(_ target: JoinTarget) async -> AppFailure? {
        switch await join(target) {
        case .joined, .asking:
            // Asking: the password, or whether to trust another key than the one remembered.
            await loop()
        case .notJoined:
            outcome = Self.notJoined(target)
        }
        await closeLobby()
        return outcome
    }

    /// Why the program ends when `target`, reached by code or address, was not joined.
    static func notJoined(_ target: JoinTarget) -> AppFailure {
        switch target.route {
        case .code: AppFailure("Could not join with this join code.", .turnedAway)
        case .address(let endpoint): AppFailure("Could not join the game at \(endpoint).", .turnedAway)
        case .listed: AppFailure("Could not join \(target.gameName).", .turnedAway)
        }
    }

    /// Over a transport that proves no keys (tests' in-memory network), an address's host
    /// cannot be identified before the invitation: it is invited at the address as it is, with
    /// no password exchange (a private game says so).
    private func runUnproved(at endpoint: Endpoint) async -> AppFailure? {
        let seat = PlayerSeat(repl: self)
        do {
            switch try await session.invite(endpoint, timeout: timeout, hostCheck: keyCheck(listedAs: nil)) {
            case .connected(let host):
                rememberKey(of: host, listedAs: host.displayName)
                remember(host, listedAs: host.displayName, at: [endpoint], isPrivate: false)
                await sit(in: seat, host: host, listedAs: host.displayName, rejoin: rejoin(host, at: endpoint, as: seat))
            case .declined(let reason):
                seat.stop()
                return AppFailure(Self.turnedAway("The host", reason), .turnedAway)
            case .timedOut:
                seat.stop()
                return AppFailure("The host did not answer within \(MultipeerError.secondsText(timeout)).", .noAnswer)
            }
        } catch {
            seat.stop()
            return AppFailure(error)
        }
        await loop()
        await closeLobby()
        return outcome
    }

    /// "alice turned you away: the game is full." — one period, whether or not the host's
    /// reason ends with one.
    static func turnedAway(_ host: String, _ reason: String?) -> String {
        Sentence.saying("\(host) turned you away", reason)
    }

    /// Opens the list of games nearby (once): discovery, and the games remembered from before.
    private func openLobby() async {
        guard lobby == nil else { return }
        let browser = Browser(serviceType: GameAdvertisement.serviceType, localPeer: session.localPeer, discovery: discovery)
        let watching = observe(browser)
        do { try await browser.start() } catch { games.apply(.failed(error)) }  // the list's header says so
        lobby = Lobby(browser: browser, watching: watching, probing: probeRememberedGames(), checking: recheckSilentGames())
        console.setPrompt("join> ")
    }

    /// Posts ``AppEvent/timer`` after `delay`, by a timer kept until the list of games closes.
    private func wake(after delay: Duration) {
        timers.append(inbox.wake(after: delay))
    }

    /// Closes the list of games, if open, and cancels the timers set for it.
    private func closeLobby() async {
        for timer in timers { timer.cancel() }
        timers = []
        guard let lobby else { return }
        lobby.watching.cancel()  // stops quietly: no "0 found" on the way out
        lobby.probing?.cancel()
        lobby.checking.cancel()
        await lobby.browser.stop()
        self.lobby = nil
    }

    private func loop() async {
        for await event in inbox.events {
            if await handle(event) == .quit { return }
        }
    }

    /// What the player does with one event.
    func handle(_ event: AppEvent) async -> CommandFlow {
        if let seat {
            let flow = await seat.handle(event)
            if flow == .stay { return .stay }
            seat.stop()
            self.seat = nil
            console.discardTypedLine()  // typed for the game: not an answer to the list
            // Joined by code or address: a person goes on to the list of games; a script is done.
            if flow == .quit || (lobby == nil && !console.isInteractive) { return .quit }
            if lobby == nil {
                await openLobby()
                console.print(games.wholeListLines())
                console.print(Self.lobbyHint)
                return .stay
            }
            if let game = seatGame {
                switch seat.ending {
                case .left, .removed:
                    games.noteLeft(game, ended: false)
                    wake(after: GameList.leftCorrection + .milliseconds(100))  // then show the announced count
                case .ended: games.noteLeft(game, ended: true)
                case .lost: games.markSilent(game)
                }
            }
            seatGame = nil
            console.setPrompt("join> ")
            console.print(games.wholeListLines())
            return await joinWantedGame()
        }
        switch event {
        case .typed(let line):
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let asked = question {
                question = nil
                return await answer(asked, with: line)
            }
            if let number = Int(trimmed) {
                switch games.pick(number) {
                case .game(let chosen)?:
                    if await join(JoinTarget(game: chosen, route: .listed)) == .notJoined, let changes = games.changeLines() { console.print(changes) }  // shows the game marked
                case .gone(let name)?:
                    console.print("\(TerminalText.sanitized(name))'s game (\(number)) is gone; pick another, or press Enter to see the list again.")
                case nil:
                    console.print("There is no game number \(number); \(games.isEmpty ? "none has been found yet." : "pick one from the list.")")
                }
                return .stay
            }
            if trimmed.isEmpty {
                console.print(games.wholeListLines())  // numbered anew, without the games that went away
                return .stay
            }
            if let command = CommandTable.parse(line, for: .lobby) { return await command.perform(on: self) }
            console.print("Type the number of a game to join it, or /quit. Games appear here as they are found.")
            return .stay
        case .gamesChanged, .timer:
            if event == .timer, let changes = games.changeLines() { console.print(changes) }
            return await joinWantedGame()
        case .inputEnded:
            // A script that names its game may have no more to say.
            return wanted == nil ? .quit : .stay
        case .signal:
            return .quit
        case .interrupted(let cleared):
            if let asked = question {
                question = nil
                console.print("Not joined.")
                if !asked.target.isListed, lobby == nil {
                    outcome = Self.notJoined(asked.target)
                    return .quit
                }
                if let changes = games.changeLines() { console.print(changes) }
                return .stay
            }
            if interrupts.interrupt(clearedText: cleared) { return .quit }
            if !cleared { console.print("To quit, press Ctrl-C again, press Ctrl-D or type /quit.") }
            return .stay
        case .hostLeft, .linkLost, .rejoin:
            return .stay
        }
    }

    /// How long `--game` waits, once its game is listed, for a game under a name that looks
    /// the same (one announced to pose as it) to be listed too.
    static var nameSettling: Duration { .seconds(1) }

    /// With `--game`: joins the wanted game once it has been listed for ``nameSettling`` with
    /// no other game under a name that looks like it, or gives up after the timeout. Two games
    /// that look like the name, or only one that looks like it without being it, are refused
    /// with a sentence that lists them: someone may be posing as the game.
    private func joinWantedGame() async -> CommandFlow {
        guard let wanted else { return .stay }
        let matches = games.matching(wanted.name)
        if !matches.isEmpty {
            if matches.count > 1 || !matches[0].names.contains(wanted.name) {
                console.print(Self.lookalikeRefusal(wanted.name, matches.flatMap(\.names)))
                outcome = AppFailure("Could not join “\(TerminalText.sanitized(wanted.name))”.", .turnedAway)
                return .quit
            }
            guard let settled = wanted.settled else {
                self.wanted?.settled = .now + Self.nameSettling
                wake(after: Self.nameSettling)
                return .stay
            }
            if ContinuousClock.now < settled { return .stay }
            let game = matches[0]
            if !tried.contains(game.peer) {
                tried.insert(game.peer)
                if await join(JoinTarget(game: game, route: .listed)) == .joined { return .stay }
                outcome = AppFailure("Could not join “\(TerminalText.sanitized(wanted.name))”.", .turnedAway)
                return .quit
            }
        }
        if ContinuousClock.now >= wanted.deadline {
            let why = games.problem == nil ? "." : ": games cannot be found while discovery is unavailable."
            outcome = AppFailure(
                "No game called “\(TerminalText.sanitized(wanted.name))” was found within \(MultipeerError.secondsText(timeout))" + why, .notFound)
            return .quit
        }
        return .stay
    }

    /// How a try to join a listed game ended.
    enum JoinResult { case joined, notJoined, asking }

    /// What the player's answer to `asked` does.
    private func answer(_ asked: Question, with line: String) async -> CommandFlow {
        switch asked {
        case .newKey(let target):
            if ["y", "yes"].contains(line.trimmingCharacters(in: .whitespaces).lowercased()) {
                if await join(target, acceptingNewKey: true) != .notJoined { return .stay }
            } else {
                console.print("Not joined.")
            }
        case .password(let target, let acceptingNewKey):
            do {
                if await join(target, acceptingNewKey: acceptingNewKey, password: try GamePassword(line)) != .notJoined { return .stay }
            } catch {
                console.print(error.message)
            }
        }
        // Joined by code or address, with no list of games open: nothing else to do.
        if !asked.target.isListed, lobby == nil {
            outcome = Self.notJoined(asked.target)
            return .quit
        }
        console.print(games.wholeListLines())
        return .stay
    }

    /// Invites the host of `target` and sits down if let in.
    ///
    /// A listed host that announces another key than the one remembered for its name is asked
    /// about at a terminal (``JoinResult/asking``; the next line typed answers) and refused in
    /// scripts; `acceptingNewKey` is the yes. A join code or an address pins the host's key
    /// itself, and is asked about only if the name the host answers with was remembered with
    /// another key. A private game — listed as private, or saying so when invited without a
    /// password — is sent the exchange of `password`, or of the environment's; without one the
    /// player is asked for it at a terminal, and a script is told to set it.
    private func join(
        _ target: JoinTarget, acceptingNewKey: Bool = false, password typed: GamePassword? = nil, again: Bool = false
    ) async -> JoinResult {
        let game = target.game
        let hostName = target.host
        if target.isListed, !acceptingNewKey, knownHosts?.status(ofHost: game.peer.displayName, identity: game.peer.identity) == .changed {
            if wanted == nil, console.isInteractive {
                question = .newKey(target)
                console.print(Self.changedKeyQuestion(hostName))
                return .asking
            }
            console.print(Self.changedKeyRefusal(hostName, file: knownHosts?.fileURL.path ?? "the known hosts"))
            return .notJoined
        }
        // The password, and whether the host must ask for it: a game listed as private must. A
        // join code or an address says nothing of a password; one from the environment goes (in
        // an exchange bound to the pinned identity) in case the game is private.
        var secret: (password: GamePassword, required: Bool)?
        if let typed {
            secret = (typed, true)
        } else if target.isListed, GameAdvertisement(decoding: game.info).isPrivate {
            guard let password else { return askPassword(for: target, acceptingNewKey: acceptingNewKey) }
            secret = (password, true)
        } else if !target.isListed, let password {
            secret = (password, false)
        }
        guard let seat = GameCatalog.seat(for: target.gameID, at: self) else {
            console.print(GameCatalog.unknownGame(target.gameID, host: hostName))
            return .notJoined
        }
        let (request, answer) = Self.joinRequest(seat.joinRequest(resumeAfter: nil), from: session.localPeer, to: game.peer, secret: secret)
        if target.isListed { console.print("Joining \(hostName)…") }  // a code or an address said "Connecting to" already
        // A code's or an address's host is checked by the name it answers with: the key is
        // pinned, but never silently in place of another key remembered for that name.
        let refusedName = RefusedName()
        do {
            let outcome = try await session.invite(
                game, context: request.context, timeout: timeout,
                hostCheck: acceptingNewKey ? nil : keyCheck(listedAs: target.isListed ? game.peer.displayName : nil, refused: refusedName),
                answer: answer)
            switch outcome {
            case .connected(let host):
                // The name its key's holder gives itself, unless listed under it (or Avahi's "alice #2"):
                // a record under another name that claims its identity never names it.
                let listed = target.isListed ? HostName.joined(listedAs: game.peer.displayName, answering: host.displayName) : host.displayName
                rememberKey(of: host, listedAs: listed)
                remember(host, listedAs: listed, at: game.endpoints, isPrivate: GameAdvertisement(decoding: game.info).isPrivate || secret != nil)
                if target.isListed { seatGame = game.peer }
                await sit(in: seat, host: host, listedAs: listed, rejoin: rejoin(game, as: seat, secret: secret, listedAs: listed))
                return .joined
            case .declined(let reason) where GameError.asksForPassword(reason) && secret == nil:
                // Private, though nothing said so before: the same question as a listed private game.
                seat.stop()
                if let password { return await join(target, acceptingNewKey: acceptingNewKey, password: password) }
                return askPassword(for: target, acceptingNewKey: acceptingNewKey)
            case .declined(let reason) where target.playing == nil:
                // Another game than the listing said (or than guess-the-number, by code or address): play that one.
                guard let hosted = GameError.hostedGame(declining: reason, asked: target.gameID, among: GameCatalog.kinds) else { fallthrough }
                seat.stop()
                var playing = target
                playing.playing = hosted.id
                return await join(playing, acceptingNewKey: acceptingNewKey, password: typed, again: again)
            case .declined(let reason):
                console.print(Self.turnedAway(target.hostStartingSentence, reason))
            case .timedOut:
                if target.isListed {
                    games.markSilent(game.peer)
                    console.print("\(hostName) did not answer within \(MultipeerError.secondsText(timeout)); the list marks the game as not answering.")
                } else {
                    console.print("\(target.hostStartingSentence) did not answer within \(MultipeerError.secondsText(timeout)).")
                }
            }
        } catch where error.code == .hostRefused {
            if !target.isListed, let name = refusedName.value.withLock({ $0 }), console.isInteractive {
                question = .newKey(target)
                console.print(Self.changedKeyQuestion(TerminalText.sanitized(name)))
                seat.stop()
                return .asking
            }
            console.print(error.message)
        } catch where target.isListed && !again && (error.code == .hostNotAnswering || error.code == .connectionFailed)
                    && Set(games.entry(for: game.peer)?.endpoints ?? game.endpoints) != Set(game.endpoints) {
            // Discovery resolved more addresses meanwhile (it reports a game at its first): try those too.
            seat.stop()
            let refreshed = JoinTarget(game: games.entry(for: game.peer) ?? game, route: .listed)
            return await join(refreshed, acceptingNewKey: acceptingNewKey, password: typed, again: true)
        } catch where target.isListed && error.code == .hostNotAnswering {
            games.markSilent(game.peer)
            console.print(Self.foundButSilent(hostName, at: game.endpoints))
        } catch where error.code == .wrongPeer && target.route == .code {
            console.print("This join code is for another host: someone else answered at its address, with another key. Ask the host for its code again.")
        } catch where error.code == .wrongPeer && !target.isListed {
            console.print("Another host answers at \(Endpoint.spokenList(game.endpoints)) than a moment ago, with another key: not joined.")
        } catch {
            if target.isListed, error.code != .wrongPeer { games.markSilent(game.peer) }
            console.print("Could not join \(hostName): \(error.message)")
        }
        seat.stop()
        return .notJoined
    }

    /// Asks for the password of `target`'s game at a terminal (``JoinResult/asking``), or tells
    /// a script to set it.
    private func askPassword(for target: JoinTarget, acceptingNewKey: Bool) -> JoinResult {
        if wanted == nil, console.isInteractive {
            question = .password(target, acceptingNewKey: acceptingNewKey)
            console.hideNextLine(prompt: "Password for \(target.gameName) (not shown): ")
            return .asking
        }
        console.print(Self.passwordNeeded(target))
        return .notJoined
    }

    /// The request of one invitation to the game of `host`, and the answer to its challenge:
    /// with `secret`, a fresh ``Rooms/PasswordExchange`` of its password (each invitation needs its own).
    private static func joinRequest(
        _ request: JoinRequest, from guest: PeerID, to host: PeerID, secret: (password: GamePassword, required: Bool)?
    ) -> (JoinRequest, InvitationAnswer?) {
        guard let secret else { return (request, nil) }
        let exchange = PasswordExchange.Guest(password: secret.password, guest: guest.identity, host: host.identity, required: secret.required)
        var request = request
        request.passwordExchange = exchange.opening
        return (request, { host, challenge in exchange.answer(host: host, challenge: challenge) })
    }

    /// What a player is told when a listed game's machine does not answer at any of its
    /// addresses: discovery works, so the likeliest cause is a firewall on the host's machine.
    static func foundButSilent(_ host: String, at endpoints: [Endpoint]) -> String {
        let port = endpoints.first.map { " --port \($0.port)" } ?? ""
        return "\(host)'s game was found on the network, but nothing answers at \(Endpoint.spokenList(endpoints)): a firewall on \(host)'s machine may be dropping the game's port. There, `guessnum doctor\(port)` names such a rule."
    }

    static func passwordNeeded(_ target: JoinTarget) -> String {
        "\(target.gameNameStartingSentence) is private: set \(PasswordQuestion.environmentVariable) to its password to join it from a script."
    }

    /// The check that refuses a host whose proved key is not the one remembered for its name
    /// (`name` it was listed under, or the name it gives when joined by address) or for the
    /// name it will be shown under (``HostName/joined(listedAs:answering:)``), before anything
    /// of the game is shown; nil without known hosts.
    private func keyCheck(listedAs name: String?, refused: RefusedName? = nil) -> Session.HostCheck? {
        guard let knownHosts else { return nil }
        return { host, key in
            guard let key else { return nil }
            let listed = name ?? host.displayName
            for name in Set([listed, HostName.joined(listedAs: listed, answering: host.displayName)]).sorted()
            where knownHosts.status(ofHost: name, key: key) == .changed {
                refused?.value.withLock { $0 = name }
                return Self.changedKeyRefusal(TerminalText.sanitized(name), file: knownHosts.fileURL.path)
            }
            return nil
        }
    }

    /// Remembers the key `host` proved under `name` (a host met for the first time, or one
    /// whose new key the player accepted), and says so the first time.
    private func rememberKey(of host: PeerID, listedAs name: String) {
        guard let knownHosts, let key = session.provenKey(of: host) else { return }
        let status = knownHosts.status(ofHost: name, key: key)
        guard status != .known else { return }
        do {
            try knownHosts.remember(name, key: key)
            if status == .unknown {
                console.print(text.style.dim("First game with \(TerminalText.sanitized(name)) here: its key is remembered in \(knownHosts.fileURL.path), and another key under that name will be questioned."))
            }
        } catch {
            console.print(error.message)
        }
    }

    /// What `--game NAME` says when the games listed under names like NAME are not exactly one
    /// called NAME.
    static func lookalikeRefusal(_ wanted: String, _ names: [String]) -> String {
        let listed = names.map { "“\(TerminalText.sanitized($0))”" }
        let which = names.count == 1
            ? "no game is called “\(TerminalText.sanitized(wanted))”, but \(listed[0]) looks like it"
            : "\(names.count) games have names that look like “\(TerminalText.sanitized(wanted))”: \(listed.joined(separator: ", "))"
        return "Not joined: \(which). A game under a name that looks like another's may be someone posing as it; pick the one you mean from the list (guessnum join), or join with its host's join code."
    }

    static func changedKeyQuestion(_ host: String) -> String {
        "“\(host)” now has another key than when you last played with it: someone else may be posing as it, or \(host) has a new computer. Join anyway and remember the new key? [y/N]"
    }

    static func changedKeyRefusal(_ host: String, file: String) -> String {
        "“\(host)” now has another key than when you last played with it: someone else may be posing as it. Not joined. If \(host) really has a new key (a new computer, a reinstall), remove its line from \(file) and join again."
    }

    /// Remembers where the game of `host` was joined, to try it there when discovery does not
    /// list it another time.
    private func remember(_ host: PeerID, listedAs name: String, at endpoints: [Endpoint], isPrivate: Bool) {
        do {
            try rememberedGames?.remember(name, identity: host.identity, endpoints: endpoints, isPrivate: isPrivate)
        } catch {
            console.print(error.message)
        }
    }

    /// How long discovery has to list the games nearby before remembered games it did not list
    /// are tried where they were joined (at once when discovery is unavailable).
    static let rememberedDelay: Duration = .seconds(2)
    /// How long a remembered game's host has to answer.
    static let probeTimeout: Duration = .seconds(3)

    /// Tries the remembered games that discovery does not list, each at its remembered
    /// addresses, and lists those whose host answers there with its key (see
    /// ``Multipeer/Session/probe(_:timeout:)``); nil when nothing is remembered.
    ///
    /// So a game is found where it was wherever discovery cannot list it: no avahi-daemon, Wi-Fi
    /// that filters multicast — and a game its host hid (`/visible off`), which is not
    /// announced but not closed either: a probe cannot tell these apart, and the host is told
    /// that players who joined before still find it.
    private func probeRememberedGames() -> Task<Void, Never>? {
        guard let rememberedGames else { return nil }
        let (remembered, problem) = rememberedGames.read()
        if let problem { console.print(problem) }
        let listings = remembered.compactMap(\.listing)
        guard !listings.isEmpty else { return nil }
        let (session, games, console, inbox) = (session, games, console, inbox)
        return Task {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < Self.rememberedDelay, games.problem == nil, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
            }
            let listed = games.listedIdentities
            await withTaskGroup(of: Void.self) { group in
                for game in listings where !listed.contains(game.peer.identity) && !Task.isCancelled {
                    group.addTask {
                        guard (try? await session.probe(game, timeout: Self.probeTimeout)) != nil else { return }
                        if games.addRemembered(game), let changes = games.changeLines() { console.print(changes) }
                        inbox.post(.gamesChanged)
                    }
                }
            }
        }
    }

    /// What the list says under the whole list when it is first printed.
    static let lobbyHint = "Type the number of a game to join it, or press Enter to see the list again; /help for more."

    /// How often games marked as not answering are checked again while the list is shown.
    static let recheckInterval: Duration = .seconds(3)
    /// How many silent games are checked at once.
    static let recheckWidth = 4

    /// While the list is shown, checks the games marked as not answering every
    /// ``recheckInterval`` (a connection that sends nothing, ``Multipeer/Session/probe(_:timeout:)``,
    /// a few at a time) and clears the mark of those that answer, so "not answering" says what
    /// was measured last, not what a join found a minute ago.
    private func recheckSilentGames() -> Task<Void, Never> {
        let (session, games, console) = (session, games, console)
        return Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.recheckInterval)
                guard games.isShowing, !Task.isCancelled else { continue }
                let silent = games.silentGames
                for start in stride(from: 0, to: silent.count, by: Self.recheckWidth) {
                    await withTaskGroup(of: Void.self) { group in
                        for game in silent[start..<min(start + Self.recheckWidth, silent.count)] {
                            group.addTask {
                                let began = ContinuousClock.now
                                let answered = (try? await session.probe(game, timeout: Self.probeTimeout)) != nil
                                // Cancelled (the list closed): the probe ended unanswered, which measures nothing.
                                guard !Task.isCancelled else { return }
                                if answered {
                                    games.answered(game.peer, checkedAt: began)
                                } else {
                                    games.markSilent(game.peer)
                                }
                            }
                        }
                    }
                }
                if let changes = games.changeLines() { console.print(changes) }
            }
        }
    }

    /// Takes the seat the host let this player into.
    private func sit(in seat: any GuestSeat, host: PeerID, listedAs name: String, rejoin: @escaping Reconnection.Rejoin) async {
        games.isShowing = false
        self.seat = seat
        await seat.start(host: host, listedAs: name, rejoin: rejoin)
    }

    /// How to get back into the game of `host`, joined at `endpoint`: the same address, and the
    /// same host (its identity and, if remembered, its key).
    private func rejoin(_ host: PeerID, at endpoint: Endpoint, as seat: any GuestSeat) -> Reconnection.Rejoin {
        let session = session
        let keyCheck = keyCheck(listedAs: nil)
        let sameHost: Session.HostCheck = { answering, key in
            guard answering.identity == host.identity else {
                return "Another host answers at \(endpoint) now (\(TerminalText.sanitized(answering.displayName)), with another key): not rejoined."
            }
            return keyCheck?(answering, key)
        }
        return { timeout, resumeAfter throws(MultipeerError) in
            try await session.invite(endpoint, context: seat.joinRequest(resumeAfter: resumeAfter).context, timeout: timeout, hostCheck: sameHost)
        }
    }

    /// How to get back into the listed `game`: at its latest addresses (a restarted host
    /// listens on a new port), proving its key again, with a new exchange of the same password
    /// if any (and what the player has of the game, to be sent what it missed). A host that
    /// still holds the seat lets its player back without the exchange; that is no sign of an
    /// impostor here, as the key it proves is the one that proved the password before.
    private func rejoin(
        _ game: DiscoveredPeer, as seat: any GuestSeat, secret: (password: GamePassword, required: Bool)?, listedAs name: String
    ) -> Reconnection.Rejoin {
        let session = session
        let games = games
        let keyCheck = keyCheck(listedAs: name)
        let secret = secret.map { (password: $0.password, required: false) }
        return { timeout, resumeAfter throws(MultipeerError) in
            let (request, answer) = Self.joinRequest(seat.joinRequest(resumeAfter: resumeAfter), from: session.localPeer, to: game.peer, secret: secret)
            return try await session.invite(
                games.entry(for: game.peer) ?? game, context: request.context, timeout: timeout, hostCheck: keyCheck, answer: answer)
        }
    }

    /// Prints what changes in the list of games, and posts ``AppEvent/gamesChanged``.
    private func observe(_ browser: Browser) -> EventObservation {
        let console = console
        let games = games
        let inbox = inbox
        return browser.events.observe(.browserEvent) { event in
            // A failure shows once, as the list's header, until games can be found again.
            games.apply(event)
            if let changes = games.changeLines() { console.print(changes) }
            inbox.post(.gamesChanged)
        }
    }
}

/// The name a host answered with when the known hosts refused its key (for the question a
/// join code's player is asked).
final class RefusedName: Sendable {
    let value = Mutex<String?>(nil)
}

