import EventBus
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// What every seat does about its link to the host, whatever the game: the name the game was
/// joined under, getting back in after a drop (saying so, keeping what the player types
/// meanwhile, saying how it ended), the double Ctrl-C, and how the seat was given up.
final class SeatLink: Sendable {
    let session: Session
    let console: any Console
    let inbox: Inbox
    private let style: TextStyle
    private let state = Mutex(LinkState())

    private struct LinkState {
        var host: PeerID?
        var ending = SeatEnding.left
        /// When the host's word ended the seat (``hostLeft(_:holdsSeats:)``).
        var endedAt: ContinuousClock.Instant?
        var interrupts = InterruptTimer()
        /// The game's name as listed (or the host's name when joined by address).
        var listedName = "The host"
        /// How to get back in if the link drops; nil when the seat cannot be rejoined.
        var rejoin: Reconnection.Rejoin?
        /// The tries to get back in, while the link is down.
        var reconnection: Reconnection?
        /// Waits, once back in, for what was missed; formed from the game as it was when the
        /// link dropped (a fresh welcome may arrive before the rejoin is handled).
        var catchUp: (@Sendable () async -> Void)?
        /// The task that reads what the game tells the seat.
        var reader: Task<Void, Never>?
    }

    init(session: Session, console: any Console, inbox: Inbox, style: TextStyle) {
        self.session = session
        self.console = console
        self.inbox = inbox
        self.style = style
    }

    /// The seat is at `host`'s game, listed as `name`; `rejoin` (nil: none) gets back in.
    func sit(at host: PeerID, listedAs name: String, rejoin: Reconnection.Rejoin?) {
        state.withLock {
            $0.host = host
            $0.listedName = TerminalText.sanitized(name)
            $0.rejoin = rejoin
        }
    }

    /// Reads `stream` (what the game tells the seat, in order) until it ends or the seat stops,
    /// handing each event to `show`.
    func read<Event: Sendable>(_ stream: AsyncStream<Event>, with show: @escaping @Sendable (Event) -> Void) {
        let task = Task {
            for await event in stream { show(event) }
        }
        state.withLock { $0.reader = task }
    }

    /// Stops trying to get back in and reading what the game tells the seat.
    func stop() {
        takeReconnection()?.cancel()
        state.withLock { $0.reader?.cancel() }
    }

    /// The host, once seated.
    var host: PeerID? { state.withLock { $0.host } }
    /// The game's name as the player knows it (sanitised).
    var listedName: String { state.withLock { $0.listedName } }
    /// How the seat was given up (meaningful once the REPL has left it).
    /// When the host's word ended the seat; nil while it has not.
    var endedAt: ContinuousClock.Instant? { state.withLock { $0.endedAt } }

    var ending: SeatEnding {
        get { state.withLock { $0.ending } }
        set { state.withLock { $0.ending = newValue } }
    }
    var isReconnecting: Bool { state.withLock { $0.reconnection != nil } }

    /// Whether this Ctrl-C (`cleared`: it only cleared a half-typed line) is the second within
    /// the window, which leaves.
    func interrupt(clearedText cleared: Bool) -> Bool {
        state.withLock { $0.interrupts.interrupt(clearedText: cleared) }
    }

    /// The tries to get back in under way, if any; afterwards there are none.
    @discardableResult
    func takeReconnection() -> Reconnection? {
        state.withLock { state in
            defer { state.reconnection = nil; state.catchUp = nil }
            return state.reconnection
        }
    }

    /// The link dropped while the host holds the seat for `hold` (nil: it holds none): says so
    /// once and starts trying to get back with what the player has (`resumeAfter`); false when
    /// the seat cannot be rejoined. `catchingUp` notes the game as it is now, before any of
    /// what the host sends once the link is back.
    func startReconnecting(hold: Duration?, resumeAfter: UInt64?, catchingUp: () -> @Sendable () async -> Void) -> Bool {
        if isReconnecting { return true }
        guard let hold, let rejoin = state.withLock({ $0.rejoin }) else { return false }
        console.print(style.dim("Lost the connection to \(listedName)'s game — reconnecting… (your seat is kept for \(MultipeerError.secondsText(hold)))"))
        let catchUp = catchingUp()
        let reconnection = Reconnection(hold: hold, resumeAfter: resumeAfter, rejoin: rejoin, inbox: inbox)
        state.withLock {
            $0.catchUp = catchUp
            $0.reconnection = reconnection
        }
        return true
    }

    /// While the link is down: keeps `line` to be sent once back (or says why not) and returns
    /// true; false when the link is up and the line is the seat's to handle.
    func keepWhileDown(_ line: String) -> Bool {
        guard let reconnection = state.withLock({ $0.reconnection }) else { return false }
        if reconnection.keep(line) {
            console.print(style.dim("Not connected: this is sent when you are back in the game."))
        } else {
            console.print("Not sent: \(Reconnection.lineLimit) lines are waiting for the connection to come back already.")
        }
        return true
    }

    /// How trying to get back in ended: back in (the lines typed meanwhile, to be sent now), or
    /// nil when the seat is given up, which is said. Also nil with nothing said when no try was
    /// under way (the player left meanwhile): the caller then stays.
    private func rejoined(_ result: RejoinResult) -> RejoinOutcome {
        guard let reconnection = takeReconnection() else { return .none }
        let name = listedName
        switch result {
        case .back: return .back(lines: reconnection.takeLines())
        case .declined(let reason): console.print(Sentence.saying("\(name) did not let you back in", reason))
        case .refused(let sentence): console.print(sentence)
        case .gaveUp: console.print("Could not get back into \(name)'s game within \(MultipeerError.secondsText(reconnection.hold)): the seat is given up.")
        }
        sayNotSent(reconnection.takeLines())
        ending = .lost
        return .givenUp
    }

    /// What ``rejoined(_:)`` found.
    private enum RejoinOutcome: Equatable {
        /// No try was under way.
        case none
        /// Back in; these lines were typed meanwhile.
        case back(lines: [String])
        /// The seat is given up (said).
        case givenUp
    }

    /// What `seat` does with `event`: typed lines are the seat's own; the host leaving, the link
    /// dropping and coming back, the end of input, signals and Ctrl-C are the same in every game.
    func handle(_ event: AppEvent, in seat: some LinkedSeat) async -> CommandFlow {
        switch event {
        case .typed(let line):
            return await seat.typed(line)
        case .hostLeft(let why):
            console.print(why)
            if ending == .ended { seat.showFinalScores() }
            return .leave
        case .inputEnded, .signal:
            quit()
            return .quit
        case .interrupted(let cleared):
            if interrupt(clearedText: cleared) {
                quit()
                return .quit
            }
            if !cleared { console.print("To leave, press Ctrl-C again, press Ctrl-D or type /quit (/leave goes back to the list of games).") }
            return .stay
        case .linkLost(let why):
            if startReconnecting(hold: seat.seatHold, resumeAfter: seat.resumePoint, catchingUp: seat.catchingUp) { return .stay }
            // Dropped before the seat was taken (before it knew how to rejoin): as the host leaving.
            ending = .lost
            return await handle(.hostLeft(why), in: seat)
        case .rejoin(let result):
            let catchUp = state.withLock { $0.catchUp } ?? seat.catchingUp()
            switch rejoined(result) {
            case .none: return .stay
            case .givenUp: return .leave
            case .back(let lines):
                // "Reconnected" was printed as the link came up, before anything it brought.
                await catchUp()
                for line in lines { _ = await seat.typed(line) }
                return .stay
            }
        case .gamesChanged, .timer:
            return .stay
        }
    }

    /// `/leave`: stops trying to get back in, says goodbye to the host.
    func leave() {
        if let reconnection = takeReconnection() {
            reconnection.cancel()
            sayNotSent(reconnection.takeLines())
        }
        guard let host else { return }
        session.disconnect(host, reason: nil)
        console.print("You left \(listedName)'s game.")
    }

    /// `/quit`, or the end of input: says goodbye to the host.
    func quit() {
        takeReconnection()?.cancel()
        if let host { session.disconnect(host, reason: nil) }
    }

    /// Says which lines typed while reconnecting were never sent, now that they will not be.
    private func sayNotSent(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let quoted = lines.map { "“\(TerminalText.sanitized($0))”" }.joined(separator: ", ")
        console.print("Not sent, as you are out of the game: \(quoted).")
    }

    /// The host left, or its link dropped (`change`): posts ``AppEvent/linkLost(_:)`` for a
    /// drop from a host that holds seats (`holdsSeats`), to try to get back in, and otherwise
    /// ``AppEvent/hostLeft(_:)`` with the sentence that says how the seat ended.
    func hostLeft(_ change: PeerStateChange, holdsSeats: Bool) {
        guard change.reason != .localDisconnect else { return }  // this player left
        let (ending, sentence) = SeatEnding.of(change, host: listedName)
        if case .lost = change.reason, holdsSeats {
            inbox.post(.linkLost(sentence))
            return
        }
        state.withLock {
            $0.ending = ending
            $0.endedAt = .now
        }
        inbox.post(.hostLeft(sentence))
    }

    /// Says "Reconnected" as the session connects to the host again while trying to get back
    /// in: before anything the host then sends.
    func observeReconnected() -> EventObservation {
        session.events.observe(.stateChanged) { [weak self] change in
            guard let self, change.state == .connected,
                  let name = state.withLock({ $0.reconnection != nil && $0.host?.identity == change.peer.identity ? $0.listedName : nil })
            else { return }
            console.print(style.dim("Reconnected to \(name)'s game."))
        }
    }

    // MARK: Catching up

    /// How long a host that held the seat has to send what was missed by itself after a rejoin.
    static let catchUpWait: Duration = .seconds(1)

    /// Back in after a drop, waits until what was missed has arrived (a replay, or a fresh
    /// welcome where the host no longer kept it), so that the player reads the game as it is
    /// and the lines kept are answered after it. A host that had not noticed the drop took the
    /// new link for the old one and sends nothing by itself: after ``catchUpWait`` it is asked;
    /// if still nothing comes, the game goes on from what does. `before` is the room when the
    /// link dropped.
    func catchUp<Rules: GameRules>(with guest: RoomGuest<Rules>, since before: RoomGuestState<Rules>, text: GameText) async {
        let asked = ContinuousClock.now + Self.catchUpWait
        let caughtUp: @Sendable (RoomGuestState<Rules>) -> Bool = { $0.hasCaughtUp(since: before) }
        var room = await guest.state(until: caughtUp, before: asked)
        if !caughtUp(room) {
            try? guest.requestCatchUp()
            room = await guest.state(until: caughtUp, before: asked + .seconds(2))
        }
        if !caughtUp(room) {
            guest.takeInHeldBroadcasts()  // nothing came: the game goes on from what does
            // A host slow to send it (a busy machine, a program just restarted) may still send
            // a fresh welcome: what it means is said when it comes.
            let console = console
            Task {
                let late = await guest.state(until: caughtUp, before: .now + Self.lateWelcomeWait)
                if caughtUp(late) { Self.noteFreshWelcome(late, since: before, text: text, console: console) }
            }
        } else {
            Self.noteFreshWelcome(room, since: before, text: text, console: console)
        }
    }

    /// How long after giving up waiting a late fresh welcome is still explained.
    static let lateWelcomeWait: Duration = .seconds(30)

    /// Says what a fresh welcome after a drop means, when it replaced what was missed.
    private static func noteFreshWelcome<Rules: GameRules>(
        _ room: RoomGuestState<Rules>, since before: RoomGuestState<Rules>, text: GameText, console: any Console
    ) {
        guard room.welcomes > before.welcomes, room.replays == before.replays, room.lastSequence > before.lastSequence else { return }
        // A resumed host numbers on past a gap: then how much was missed is not known.
        let skipped = room.lastSequence - before.lastSequence
        console.print(skipped >= resumeNumberingGap ? text.restarted() : text.skipped(skipped))
    }
}

/// What a seat gives ``SeatLink/handle(_:in:)``: the game's part of a seat.
protocol LinkedSeat: AnyObject, Sendable {
    /// How long the host holds the seat after a drop, as its welcome said; nil: it holds none.
    var seatHold: Duration? { get }
    /// The last numbered item the player has, for the host to replay what came after.
    var resumePoint: UInt64? { get }
    /// What a typed line does (a command, a move, chat).
    func typed(_ line: String) async -> CommandFlow
    /// Prints the final scores, when the host ended the game.
    func showFinalScores()
    /// Notes the game as it is before getting back in; the returned wait ends once what was
    /// missed meanwhile has arrived (or it is no use waiting longer).
    func catchingUp() -> @Sendable () async -> Void
}
