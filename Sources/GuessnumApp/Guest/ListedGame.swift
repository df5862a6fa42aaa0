import Multipeer

/// One game of the list with `--json` (`{"event": "game", "data": …}`): what its line says.
struct ListedGame: Encodable, Sendable {
    /// The number that picks it.
    let number: Int
    let name: String
    /// The current round's range, if announced (as JSON, `{"lower": 1, "upper": 100}`).
    let range: AnnouncedRange?
    let players: Int?
    let maximumPlayers: Int?
    let round: Int?
    let `private`: Bool
    /// The game its host runs (`guessnum`, `tictactoe`, `rps`, or one this program does not know).
    let game: String
    /// "remembered", "not answering", "several names", "played before", "another key".
    let flags: [String]
    /// It went away since the list was printed (its number is not reused while shown).
    let gone: Bool
}

/// The numbers a listed game's round is played over, as a program reads them.
struct AnnouncedRange: Encodable, Sendable {
    let lower: Int64
    let upper: Int64

    init(_ range: ClosedRange<Int64>) {
        (lower, upper) = (range.lowerBound, range.upperBound)
    }
}

extension DiscoveredPeer {
    /// Every name claimed for the peer: the first claim's, then the others.
    var names: [String] { [peer.displayName] + otherNames }
}
