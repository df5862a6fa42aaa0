import GuessnumTerminal
import Multipeer
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
            var facts: [String] = []
            if let range = game.info["r"] { facts.append("numbers \(range.replacingOccurrences(of: "..", with: "–"))") }
            if let players = game.info["p"] { facts.append("\(players) players") }
            if let round = game.info["n"] { facts.append("round \(round)") }
            lines.append("  \(index + 1)) \(style.bold(TerminalText.sanitized(game.peer.displayName)))"
                + (facts.isEmpty ? "" : " — " + TerminalText.sanitized(facts.joined(separator: ", "))))
        }
        return lines.joined(separator: "\n")
    }
}
