import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The games nearby, numbered in the order they were found, as `guessnum join` lists them;
/// with what this player learned itself: games whose host did not answer, the game it just
/// left, and whether discovery works at all.
///
/// Numbers are stable while the list is on screen: a game keeps its number, and a game that
/// goes away keeps it too, shown as gone (a number on screen never means another game, so a
/// number typed from what is shown joins what is shown). Only when the whole list is printed
/// again (``wholeList()``: back from a game, `/list`) are gone games dropped and the rest
/// numbered anew. In between, ``changes(at:)`` gives one short line per game whose line changed.
final class GameList: Sendable {
    /// One number of the list.
    private struct Slot {
        var game: DiscoveredPeer
        /// Discovery lost it since the whole list was last printed.
        var isGone = false
        /// When discovery last told of it (found or updated); nil for a remembered game.
        var announcedAt: ContinuousClock.Instant?
    }

    private struct State {
        /// The numbered games, number `n` at index `n - 1`.
        var slots: [Slot] = []
        /// Games whose host did not answer, and when that was last found: cleared when the host
        /// answers a check (``answered(_:checkedAt:)``) or the game is announced anew.
        var silent: [PeerID: ContinuousClock.Instant] = [:]
        /// Games this player just left: the count shown (one lower than the last announced) until
        /// the host's next announcement, or until the host has surely announced the change.
        var left: [PeerID: (count: Int, until: ContinuousClock.Instant)] = [:]
        /// Games not announced here but remembered from before, whose host answered at its
        /// remembered address with its key; cleared when discovery finds the game.
        var remembered: Set<PeerID> = []
        /// Why games cannot be found, while that is so.
        var problem: String?
        /// That one way of finding games failed while the others go on (the site's zone with
        /// avahi-daemon down): said once, with the next lines printed.
        var partialProblem: String?
        /// What was last printed: each number's line, and the problem (nil: none shown).
        var shownLines: [Int: String] = [:]
        var shownProblem: String?
        var isShowing = false
    }

    private let style: TextStyle
    private let knownHosts: KnownHosts?
    private let state = Mutex(State())

    /// A list printed in `style` (each game also a `game` event for `--json`'s console).
    init(style: TextStyle, knownHosts: KnownHosts? = nil) {
        self.style = style
        self.knownHosts = knownHosts
    }

    /// Whether changes are printed (while the list is on screen, not during a game); set by
    /// printing the whole list.
    var isShowing: Bool {
        get { state.withLock { $0.isShowing } }
        set { state.withLock { $0.isShowing = newValue } }
    }

    /// Whether no game is listed (gone ones do not count).
    var isEmpty: Bool { state.withLock { !$0.slots.contains { !$0.isGone } } }

    /// Why games cannot be found, in a player's words, if they cannot.
    var problem: String? { state.withLock { $0.problem } }

    /// Applies `event`. What the list shows then comes from ``changes(at:)``.
    func apply(_ event: BrowserEvent, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            switch event {
            case .found(let game):
                state.problem = nil
                // A game back under its number, news of it, or the same host found by discovery in
                // place of its remembered entry (even under a new name: peers are equal by identity).
                if let index = state.slots.firstIndex(where: { $0.game.peer == game.peer }) {
                    if state.slots[index].isGone || state.slots[index].game.info != game.info { state.left[game.peer] = nil }
                    state.remembered.remove(game.peer)
                    state.slots[index] = Slot(game: game, announcedAt: now)
                } else {
                    state.slots.append(Slot(game: game, announcedAt: now))
                }
                // Announced anew: what was measured before says nothing of now.
                state.silent[game.peer] = nil
            case .updated(let game):
                if let index = state.slots.firstIndex(where: { $0.game.peer == game.peer }) {
                    state.slots[index] = Slot(game: game, announcedAt: now)
                    state.silent[game.peer] = nil
                    state.left[game.peer] = nil
                }
            case .lost(let peer):
                guard !state.remembered.contains(peer) else { break }  // still where it was remembered
                if let index = state.slots.firstIndex(where: { $0.game.peer == peer }) { state.slots[index].isGone = true }
                state.silent[peer] = nil
                state.left[peer] = nil
            case .failed(let error):
                if error.code == .discoveryUnavailable { state.problem = Self.notice(error) }
                if error.code == .discoveryPartlyUnavailable { state.partialProblem = Self.partialNotice(error) }
            }
        }
    }

    /// What the player is told when games cannot be found: the backend's reason in a player's
    /// words (it speaks of peers connecting by address), and the ways into a game that still work.
    static func notice(_ error: MultipeerError) -> String {
        "Games nearby can't be found: \(reason(error)) Meanwhile you can still join a game by the join code or the address (HOST:PORT) its host printed: guessnum join CODE."
    }

    /// The discovery backend's sentence in a player's words: it speaks of peers, and of
    /// connecting by address, which the notices say for games.
    private static func reason(_ error: MultipeerError) -> String {
        var reason = error.message
        for library in [" Meanwhile peers can still", " Peers can still"] {
            if let range = reason.range(of: library) { reason = String(reason[..<range.lowerBound]) }
        }
        return reason.replacingOccurrences(of: "so peers can neither be announced nor found", with: "so games can't be found")
    }

    /// What the player is told when games on the LAN cannot be found but the site's DNS zone
    /// still lists its own: the failed way's reason in a player's words, and that the list goes on.
    static func partialNotice(_ error: MultipeerError) -> String {
        "Games on this LAN can't be found: \(reason(error)) The games your site's DNS server lists are still shown."
    }

    /// Lists `game`, remembered from before, whose host answered at its remembered address,
    /// unless discovery lists it already; returns whether the list changed.
    @discardableResult
    func addRemembered(_ game: DiscoveredPeer) -> Bool {
        state.withLock { state in
            guard !state.slots.contains(where: { !$0.isGone && $0.game.peer.identity == game.peer.identity }) else { return false }
            if let index = state.slots.firstIndex(where: { $0.game.peer == game.peer }) {
                state.slots[index] = Slot(game: game)
            } else {
                state.slots.append(Slot(game: game))
            }
            state.remembered.insert(game.peer)
            return true
        }
    }

    /// The identities of the games listed now.
    var listedIdentities: Set<UUID> {
        state.withLock { Set($0.slots.filter { !$0.isGone }.map(\.game.peer.identity)) }
    }

    /// Marks `game` as not answering (a join or a check found its host silent) at `now`.
    func markSilent(_ game: PeerID, at now: ContinuousClock.Instant = .now) {
        state.withLock { $0.silent[game] = now }
    }

    /// The games marked as not answering, as listed now, to be checked again.
    var silentGames: [DiscoveredPeer] {
        state.withLock { state in state.slots.filter { !$0.isGone && state.silent[$0.game.peer] != nil }.map(\.game) }
    }

    /// The host of `game` answered a check begun at `checkedAt`: its mark goes, unless the game
    /// was found silent again after the check began.
    func answered(_ game: PeerID, checkedAt: ContinuousClock.Instant) {
        state.withLock { state in
            guard let marked = state.silent[game], marked <= checkedAt else { return }
            state.silent[game] = nil
        }
    }

    /// How long a count corrected after leaving is shown: past the host's announcement of the
    /// change (it refreshes at most once a second), after which the announced count is right.
    static let leftCorrection: Duration = .seconds(3)

    /// Notes that this player left `game` (or was removed) at `departure`: its count shows one
    /// fewer until the host announces the game again, or ``leftCorrection`` has passed — unless
    /// the host announced it after `departure` already (a kicked player reads of its kick after
    /// the host announced one player fewer), as that count is the one without this player. When
    /// `ended`, the game is dropped from the list.
    func noteLeft(_ game: PeerID, ended: Bool, departure: ContinuousClock.Instant? = nil, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard let index = state.slots.firstIndex(where: { $0.game.peer == game }) else { return }
            if ended {
                state.slots[index].isGone = true
                return
            }
            if let announced = state.slots[index].announcedAt, announced > (departure ?? now) { return }
            guard let count = GameAdvertisement(decoding: state.slots[index].game.info).playerCount else { return }
            state.left[game] = (max(0, count - 1), now + Self.leftCorrection)
        }
    }

    /// What number `number` (counting from 1) shows.
    enum Pick {
        case game(DiscoveredPeer)
        /// A game that went away since the list was printed; its name.
        case gone(String)
    }

    /// What number `number` shows; nil for a number not on the list.
    func pick(_ number: Int) -> Pick? {
        state.withLock { state in
            guard number >= 1 && number <= state.slots.count else { return nil }
            let slot = state.slots[number - 1]
            return slot.isGone ? .gone(slot.game.peer.displayName) : .game(Self.shown(slot.game, in: state))
        }
    }

    /// `game` under the name the list shows it (``shownName(of:in:)``): one person's second game
    /// is joined, and named, as that person's.
    private static func shown(_ game: DiscoveredPeer, in state: State) -> DiscoveredPeer {
        let name = shownName(of: game, in: state)
        guard name != game.peer.displayName, let peer = try? PeerID(displayName: name, identity: game.peer.identity) else { return game }
        return DiscoveredPeer(peer: peer, endpoints: game.endpoints, info: game.info, otherNames: game.otherNames)
    }

    /// Game number `number` (counting from 1), unless it is no longer listed.
    func entry(_ number: Int) -> DiscoveredPeer? {
        if case .game(let game)? = pick(number) { return game }
        return nil
    }

    /// The listing of `game` as last resolved (its addresses may have changed since it was
    /// joined: a host that restarted listens on a new port).
    func entry(for game: PeerID) -> DiscoveredPeer? {
        state.withLock { $0.slots.first { !$0.isGone && $0.game.peer == game }?.game }
    }

    /// The games whose name (or one of the names claimed for them) is `name` or looks like it,
    /// in list order: for "rt", "Rt", "rt #2" and a Cyrillic "rт" (``HostName``); for a name with
    /// Avahi's suffix, such as "rt #2" (read off the host's screen), only names that look like
    /// all of it.
    func matching(_ name: String) -> [DiscoveredPeer] {
        let whole = HostName.withoutCollisionSuffix(name) != name
        func key(_ text: String) -> String { whole ? ConfusableSkeleton.of(text) : HostName.key(text) }
        let wanted = key(name)
        return state.withLock { $0.slots.filter { !$0.isGone && $0.game.names.contains { key($0) == wanted } }.map(\.game) }
    }

    /// The whole list, to be printed now: gone games are dropped and the rest numbered anew, and
    /// changes are printed from here on (``isShowing``).
    func wholeListLines(at now: ContinuousClock.Instant = .now) -> [ScreenLine] {
        let known = knownHosts?.read()  // once for the whole list, outside the lock
        return state.withLock { state in
            state.slots.removeAll { $0.isGone }
            state.isShowing = true
            state.shownProblem = state.problem
            state.shownLines = [:]
            var lines: [ScreenLine] = []
            if let problem = state.problem {
                lines.append(ScreenLine(problem))
                if !state.slots.isEmpty { lines.append(ScreenLine("Games you joined before that answer where they were:")) }
            } else {
                lines.append(ScreenLine("Searching for games… \(state.slots.count) found"))
            }
            if let partial = state.partialProblem {
                lines.append(ScreenLine(partial))
                state.partialProblem = nil
            }
            for number in state.slots.indices.map({ $0 + 1 }) {
                let line = line(number, in: state, known: known, at: now)
                state.shownLines[number] = line.text
                lines.append(line)
            }
            return lines
        }
    }

    /// ``wholeListLines(at:)`` as people read it.
    func wholeList(at now: ContinuousClock.Instant = .now) -> String {
        wholeListLines(at: now).map(\.text).joined(separator: "\n")
    }

    /// The lines to print for what changed since the list was last printed, one per game whose
    /// line changed (and the notice when discovery stops or starts working); nil when nothing
    /// changed or the list is not on screen.
    func changeLines(at now: ContinuousClock.Instant = .now) -> [ScreenLine]? {
        let known = knownHosts?.read()
        return state.withLock { state in
            guard state.isShowing else { return nil }
            var lines: [ScreenLine] = []
            if state.problem != state.shownProblem {
                lines.append(ScreenLine(state.problem ?? "Games nearby can be found again; they are listed as they are found."))
                state.shownProblem = state.problem
            }
            if let partial = state.partialProblem {
                lines.append(ScreenLine(partial))
                state.partialProblem = nil
            }
            for number in state.slots.indices.map({ $0 + 1 }) {
                let line = line(number, in: state, known: known, at: now)
                guard state.shownLines[number] != line.text else { continue }
                // A game gone before it was ever shown is not worth a line.
                if state.shownLines[number] == nil, state.slots[number - 1].isGone { continue }
                state.shownLines[number] = line.text
                lines.append(line)
            }
            return lines.isEmpty ? nil : lines
        }
    }

    /// ``changeLines(at:)`` as people read it.
    func changes(at now: ContinuousClock.Instant = .now) -> String? {
        changeLines(at: now).map { $0.map(\.text).joined(separator: "\n") }
    }

    /// The name `game` is shown under: its host's, without the suffix Avahi gave a second game
    /// of the same person ("alice #2" → "alice": it announces as its owner the host of a listed
    /// "alice"), so that one person's games read as one host's, each under its own game's name.
    private static func shownName(of game: DiscoveredPeer, in state: State) -> String {
        let name = game.peer.displayName
        let base = HostName.withoutCollisionSuffix(name)
        guard base != name, let owner = GameAdvertisement(decoding: game.info).owner else { return name }
        let sameHost = state.slots.contains { !$0.isGone && $0.game.peer.displayName == base && GameAdvertisement.holder(of: $0.game) == owner }
        return sameHost ? base : name
    }

    /// Number `number`'s line (as JSON, a `game` event).
    private func line(_ number: Int, in state: State, known: KnownHosts.Snapshot?, at now: ContinuousClock.Instant) -> ScreenLine {
        let slot = state.slots[number - 1]
        let game = slot.game
        // Records under several names claim this host: none of them is its name until it proves one.
        let name = game.hasConflictingNames
            ? game.names.map { TerminalText.sanitized($0) }.joined(separator: " or ") : TerminalText.sanitized(Self.shownName(of: game, in: state))
        var advertisement = GameAdvertisement(decoding: game.info)
        if let left = state.left[game.peer], left.until > now { advertisement.playerCount = left.count }
        var flags: [String] = []
        if state.remembered.contains(game.peer) { flags.append("remembered") }
        if state.silent[game.peer] != nil { flags.append("not answering") }
        if game.hasConflictingNames { flags.append("several names") }
        switch known?.status(ofHost: game.peer.displayName, identity: GameAdvertisement.holder(of: game)) {
        case .known?: flags.append("played before")
        case .changed?: flags.append("another key")
        case .unknown?, nil: break
        }
        let listed = ListedGame(
            number: number, name: game.peer.displayName, range: advertisement.range.map(AnnouncedRange.init), players: advertisement.playerCount,
            maximumPlayers: advertisement.maximumPlayers, round: advertisement.round, private: advertisement.isPrivate,
            game: advertisement.gameID, flags: flags, gone: slot.isGone)
        return .event("game", listed) { text(of: listed, named: name, advertisement: advertisement, in: state) }
    }

    /// A listed game as people read it.
    private func text(of listed: ListedGame, named name: String, advertisement: GameAdvertisement, in state: State) -> String {
        let (number, flags) = (listed.number, listed.flags)
        let game = state.slots[number - 1].game
        if listed.gone { return "  \(number)) \(style.bold(name))'s game is no longer listed" }
        var facts = Self.facts(advertisement)
        if state.remembered.contains(game.peer) {
            facts.insert("remembered: not announced here, but answers where you joined it" + (facts.isEmpty || facts == ["private (password)"] ? " (range, players and round unknown)" : ""), at: 0)
        }
        if state.silent[game.peer] != nil { facts.append("not answering") }
        if flags.contains("played before") { facts.append("played before") }
        if flags.contains("another key") { facts.append(style.red("ANOTHER KEY than when you last played")) }
        if flags.contains("several names") {
            facts.append(style.red("SEVERAL NAMES claim this host (someone may be posing as it): the name it proves shows when you join"))
        }
        return "  \(number)) \(style.bold(name))" + (facts.isEmpty ? "" : " — " + facts.joined(separator: ", "))
    }

    /// "numbers 1–100", "3/100 players", "round 2": what is known of a game.
    static func facts(_ game: GameAdvertisement) -> [String] {
        var facts: [String] = []
        if let played = game.game { facts.append(GameCatalog.kind(id: played).map(\.title) ?? "“\(played)”, a game this guessnum does not know") }
        if let range = game.range { facts.append("numbers \(range.lowerBound)–\(range.upperBound)") }
        if let count = game.playerCount, let maximum = game.maximumPlayers { facts.append("\(count)/\(maximum) players") }
        if let round = game.round { facts.append("round \(round)") }
        if game.isPrivate { facts.append("private (password)") }
        return facts
    }
}
