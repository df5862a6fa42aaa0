import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The games nearby, numbered in the order they were found, as `guessnum join` lists them.
final class GameList: Sendable {
    private let style: TextStyle
    private let entries = Mutex<[DiscoveredPeer]>([])
    private let showing = Mutex(true)

    /// Whether changes are printed (while the list is on screen, not during a game).
    var isShowing: Bool {
        get { showing.withLock { $0 } }
        set { showing.withLock { $0 = newValue } }
    }

    init(style: TextStyle) {
        self.style = style
    }

    var isEmpty: Bool { entries.withLock { $0.isEmpty } }

    /// Applies `event`; returns whether what the list shows changed (a new address does not).
    @discardableResult
    func apply(_ event: BrowserEvent) -> Bool {
        let before = render()
        entries.withLock { entries in
            switch event {
            case .found(let game):
                if let index = entries.firstIndex(where: { $0.peer == game.peer }) { entries[index] = game } else { entries.append(game) }
            case .updated(let game):
                if let index = entries.firstIndex(where: { $0.peer == game.peer }) { entries[index] = game }
            case .lost(let peer):
                entries.removeAll { $0.peer == peer }
            case .failed:
                break
            }
        }
        return render() != before
    }

    /// Game number `number` (counting from 1).
    func entry(_ number: Int) -> DiscoveredPeer? {
        entries.withLock { (1...$0.count).contains(number) ? $0[number - 1] : nil }
    }

    func named(_ name: String) -> DiscoveredPeer? {
        entries.withLock { $0.first { $0.peer.displayName == name } }
    }

    func render() -> String {
        let games = entries.withLock { $0 }
        var lines = ["Searching for games… \(games.count) found"]
        for (index, game) in games.enumerated() {
            let facts = Self.facts(GameAdvertisement(decoding: game.info))
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
        return facts
    }
}
