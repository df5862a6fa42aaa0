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
/// ``handle(_:)``: in the list of games (the lobby) a number joins a game; in a game
/// the game's seat (``RoomSeat``) takes moves, chat and commands.
public final class GuestREPL: CommandContext, Sendable {

    /// Where the player reads and types.
    public let console: any Console
    let session: Session
    let inbox: Inbox
    let text: GameText
    let timeout: Duration
    /// The list of games nearby.
    let lobby: Lobby
    /// The games listed.
    var games: GameList { lobby.games }
    let knownHosts: KnownHosts?
    let rememberedGames: RememberedGames?
    /// The password for private games that the environment gave, if any.
    let password: GamePassword?
    /// What changes as the player goes: touched by the task that runs
    /// ``run(direct:gameName:)`` (observers and timers only post to the inbox), and kept behind
    /// a lock so that the compiler can check that nothing else touches it unguarded.
    private let state = Mutex(State())

    private struct State: Sendable {
        var question: Question?
        var outcome: AppFailure?
        var seat: (any GuestSeat)?
        var seatGame: PeerID?
        var interrupts = InterruptTimer()
        var wanted: (name: String, deadline: ContinuousClock.Instant, settled: ContinuousClock.Instant?)?
        var tried: Set<PeerID> = []
    }

    /// What the next line typed answers, if the player was asked something. While a question is
    /// open the list's changes wait (a line printed under it makes the terminal draw the question
    /// again, and a hidden password's question read as asked twice); the answer shows the list.
    var question: Question? {
        get { state.withLock { $0.question } }
        set {
            state.withLock { $0.question = newValue }
            if newValue != nil { games.isShowing = false }
        }
    }

    /// How the program ends: nil for success, or the failure to report.
    var outcome: AppFailure? {
        get { state.withLock { $0.outcome } }
        set { state.withLock { $0.outcome = newValue } }
    }
    /// The game being played, if any.
    var seat: (any GuestSeat)? {
        get { state.withLock { $0.seat } }
        set { state.withLock { $0.seat = newValue } }
    }
    /// The listed game the seat is in (nil when joined by address).
    var seatGame: PeerID? {
        get { state.withLock { $0.seatGame } }
        set { state.withLock { $0.seatGame = newValue } }
    }
    private var interrupts: InterruptTimer {
        get { state.withLock { $0.interrupts } }
        set { state.withLock { $0.interrupts = newValue } }
    }
    /// With `--game NAME`: the game wanted, when to give up, and (once it is listed) when it has
    /// been listed for ``nameSettling`` with no lookalike beside it.
    var wanted: (name: String, deadline: ContinuousClock.Instant, settled: ContinuousClock.Instant?)? {
        get { state.withLock { $0.wanted } }
        set { state.withLock { $0.wanted = newValue } }
    }
    /// The games `--game` tried and could not join.
    var tried: Set<PeerID> {
        get { state.withLock { $0.tried } }
        set { state.withLock { $0.tried = newValue } }
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
        self.text = text
        self.timeout = timeout
        lobby = Lobby(
            session: session, discovery: discovery, console: console, inbox: inbox, style: text.style, knownHosts: knownHosts,
            rememberedGames: rememberedGames)
    }

    /// Plays until the player quits: at `endpoint` if given, otherwise from the list of games
    /// nearby (joining the game called `gameName` as soon as it is found, if given). Returns
    /// the failure to report, if any.
    public func run(direct endpoint: Endpoint?, gameName: String?) async -> AppFailure? {
        if let endpoint { return await run(at: endpoint) }
        await lobby.open()
        if let gameName {
            wanted = (gameName, .now + timeout, nil)
            lobby.wake(after: timeout)
            console.print("Looking for the game “\(TerminalText.sanitized(gameName))”…")
            games.isShowing = true
            if let changes = games.changeLines() { console.print(changes) }  // the games (or why none can be found) once
        } else {
            console.print(games.wholeListLines())
            console.print(Lobby.hint)
        }
        if await joinWantedGame() != .quit { await loop() }
        await lobby.close()
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
        await lobby.close()
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
        let seat = PlayableGame.guessTheNumber.seat(self)
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
        await lobby.close()
        return outcome
    }

    /// "alice turned you away: the game is full." — one period, whether or not the host's
    /// reason ends with one.
    static func turnedAway(_ host: String, _ reason: String?) -> String {
        Sentence.saying("\(host) turned you away", reason)
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
            let departure = seat.endedAt ?? .now  // a leave: the host hears of it after this
            seat.stop()
            self.seat = nil
            console.discardTypedLine()  // typed for the game: not an answer to the list
            // Joined by code or address: a person goes on to the list of games; a script is done.
            if flow == .quit || (!lobby.isOpen && !console.isInteractive) { return .quit }
            if !lobby.isOpen {
                await lobby.open()
                console.print(games.wholeListLines())
                console.print(Lobby.hint)
                return .stay
            }
            if let game = seatGame {
                switch seat.ending {
                case .left, .removed:
                    games.noteLeft(game, ended: false, departure: departure)
                    lobby.wake(after: GameList.leftCorrection + .milliseconds(100))  // then show the announced count
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
                    // Withdrawn: the game ended, or its host hid it (`/visible off`); which, the list cannot tell.
                    console.print("\(TerminalText.sanitized(name))'s game (\(number)) is no longer listed (it ended, or its host hid it); pick another, or press Enter to see the list again.")
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
                if !asked.target.isListed, !lobby.isOpen {
                    outcome = Self.notJoined(asked.target)
                    return .quit
                }
                games.isShowing = true  // what changed while it was asked, then changes as they come
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

    /// How a try to join a listed game ended.
    enum JoinResult { case joined, notJoined, asking }

    /// Takes the seat the host let this player into.
    func sit(in seat: any GuestSeat, host: PeerID, listedAs name: String, rejoin: @escaping Reconnection.Rejoin) async {
        games.isShowing = false
        self.seat = seat
        await seat.start(host: host, listedAs: name, rejoin: rejoin)
    }
}

/// The name a host answered with when the known hosts refused its key (for the question a
/// join code's player is asked).
final class RefusedName: Sendable {
    let value = Mutex<String?>(nil)
}

