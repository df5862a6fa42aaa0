import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The games nearby, numbered in the order they were found, as `guessnum join` lists them;
/// with what this player learned itself: games whose host did not answer, the game it just
/// left, and whether discovery works at all.
final class GameList: Sendable {
    private struct State {
        var entries: [DiscoveredPeer] = []
        /// Games whose host did not answer a join; cleared when the game is announced anew.
        var silent: Set<PeerID> = []
        /// Games this player just left: the count shown (one lower than the last announced) until
        /// the host's next announcement, or until the host has surely announced the change.
        var left: [PeerID: (count: Int, until: ContinuousClock.Instant)] = [:]
        /// The list as last printed.
        var shown: String?
        /// Games not announced here but remembered from before, whose host answered at its
        /// remembered address with its key; cleared when discovery finds the game.
        var remembered: Set<PeerID> = []
        /// Why games cannot be found, while that is so.
        var problem: String?
        var isShowing = true
    }

    private let style: TextStyle
    private let knownHosts: KnownHosts?
    private let state = Mutex(State())

    init(style: TextStyle, knownHosts: KnownHosts? = nil) {
        self.style = style
        self.knownHosts = knownHosts
    }

    /// Whether changes are printed (while the list is on screen, not during a game).
    var isShowing: Bool {
        get { state.withLock { $0.isShowing } }
        set { state.withLock { $0.isShowing = newValue } }
    }

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// Why discovery does not work, if it does not.
    var problem: String? { state.withLock { $0.problem } }

    /// Applies `event`; returns whether what the list shows changed (a new address does not).
    @discardableResult
    func apply(_ event: BrowserEvent) -> Bool {
        let before = render()
        state.withLock { state in
            switch event {
            case .found(let game):
                state.problem = nil
                // The same host found by discovery replaces its remembered entry, even under a new name.
                let stale = state.remembered.filter { $0.identity == game.peer.identity }
                state.remembered.subtract(stale)
                state.entries.removeAll { stale.contains($0.peer) && $0.peer != game.peer }
                if let index = state.entries.firstIndex(where: { $0.peer == game.peer }) {
                    if state.entries[index].info != game.info { state.silent.remove(game.peer); state.left[game.peer] = nil }
                    state.entries[index] = game
                } else {
                    state.entries.append(game)
                }
            case .updated(let game):
                if let index = state.entries.firstIndex(where: { $0.peer == game.peer }) {
                    state.entries[index] = game
                    state.silent.remove(game.peer)
                    state.left[game.peer] = nil
                }
            case .lost(let peer):
                guard !state.remembered.contains(peer) else { break }  // still where it was remembered
                state.entries.removeAll { $0.peer == peer }
                state.silent.remove(peer)
                state.left[peer] = nil
            case .failed(let error):
                if error.code == .discoveryUnavailable { state.problem = error.message }
            }
        }
        return render() != before
    }

    /// Lists `game`, remembered from before, whose host answered at its remembered address,
    /// unless discovery lists it already; returns whether the list changed.
    @discardableResult
    func addRemembered(_ game: DiscoveredPeer) -> Bool {
        state.withLock { state in
            guard !state.entries.contains(where: { $0.peer.identity == game.peer.identity }) else { return false }
            state.entries.append(game)
            state.remembered.insert(game.peer)
            return true
        }
    }

    /// The identities of the games listed now.
    var listedIdentities: Set<UUID> {
        state.withLock { Set($0.entries.map(\.peer.identity)) }
    }

    /// Marks `game` as not answering (a join timed out or was refused).
    func markSilent(_ game: PeerID) {
        state.withLock { _ = $0.silent.insert(game) }
    }

    /// How long a count corrected after leaving is shown: past the host's announcement of the
    /// change (it refreshes at most once a second), after which the announced count is right.
    static let leftCorrection: Duration = .seconds(3)

    /// Notes that this player left `game` (or was removed): its count shows one fewer until
    /// the host announces the game again, or ``leftCorrection`` has passed. When `ended`, the
    /// game is dropped from the list.
    func noteLeft(_ game: PeerID, ended: Bool, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if ended {
                state.entries.removeAll { $0.peer == game }
                return
            }
            guard let entry = state.entries.first(where: { $0.peer == game }),
                  let count = GameAdvertisement(decoding: entry.info).playerCount else { return }
            state.left[game] = (max(0, count - 1), now + Self.leftCorrection)
        }
    }

    /// Game number `number` (counting from 1).
    func entry(_ number: Int) -> DiscoveredPeer? {
        state.withLock { number >= 1 && number <= $0.entries.count ? $0.entries[number - 1] : nil }
    }

    /// The listing of `game` as last resolved (its addresses may have changed since it was
    /// joined: a host that restarted listens on a new port).
    func entry(for game: PeerID) -> DiscoveredPeer? {
        state.withLock { $0.entries.first { $0.peer == game } }
    }

    /// The games whose name is `name` or looks like it, in list order: for "rt", "Rt", "rt #2"
    /// and a Cyrillic "rт" (``HostName``); for a name with Avahi's suffix, such as "rt #2" (read
    /// off the host's screen), only names that look like all of it.
    func matching(_ name: String) -> [DiscoveredPeer] {
        let whole = HostName.withoutCollisionSuffix(name) != name
        func key(_ text: String) -> String { whole ? ConfusableSkeleton.of(text) : HostName.key(text) }
        let wanted = key(name)
        return state.withLock { $0.entries.filter { key($0.peer.displayName) == wanted } }
    }

    /// The list, to be printed now (remembered as shown).
    func shownRender() -> String {
        let text = render()
        state.withLock { $0.shown = text }
        return text
    }

    /// The list, if it differs from what was last shown; nil otherwise.
    func renderIfChanged(at now: ContinuousClock.Instant = .now) -> String? {
        let text = render(at: now)
        return state.withLock { state in
            guard state.shown != text else { return nil }
            state.shown = text
            return text
        }
    }

    func render(at now: ContinuousClock.Instant = .now) -> String {
        let state = state.withLock { $0 }
        if let problem = state.problem, state.entries.isEmpty { return problem }
        var lines = [state.problem.map { "\($0)\nGames you joined before that answer where they were:" } ?? "Searching for games… \(state.entries.count) found"]
        let known = knownHosts?.read()  // once for the whole list
        for (index, game) in state.entries.enumerated() {
            var advertisement = GameAdvertisement(decoding: game.info)
            if let left = state.left[game.peer], left.until > now { advertisement.playerCount = left.count }
            var facts = Self.facts(advertisement)
            if state.remembered.contains(game.peer) { facts.insert("remembered: not announced here, but answers where you joined it", at: 0) }
            if state.silent.contains(game.peer) { facts.append("not answering") }
            switch known?.status(ofHost: game.peer.displayName, identity: game.peer.identity) {
            case .known?: facts.append("played before")
            case .changed?: facts.append(style.red("ANOTHER KEY than when you last played"))
            case .unknown?, nil: break
            }
            lines.append("  \(index + 1)) \(style.bold(TerminalText.sanitized(game.peer.displayName)))"
                + (facts.isEmpty ? "" : " — " + facts.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    /// "numbers 1–100", "3/100 players", "round 2": what is known of a game.
    static func facts(_ game: GameAdvertisement) -> [String] {
        var facts: [String] = []
        if let range = game.range { facts.append("numbers \(range)") }
        if let count = game.playerCount, let maximum = game.maximumPlayers { facts.append("\(count)/\(maximum) players") }
        if let round = game.round { facts.append("round \(round)") }
        if game.isPrivate { facts.append("private (password)") }
        return facts
    }
}
