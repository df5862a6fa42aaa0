import Multipeer
@testable import GuessnumGame
import Rooms

/// A player in a room of guess-the-number as a test looks at it: in their seat, with this
/// round's counted guesses, their wins, and whether their link is down.
struct SeatedPlayer: Sendable, Hashable {
    let player: PlayerRef
    let peer: PeerID
    let guessesThisRound: Int
    let wins: Int
    let awaySince: ContinuousClock.Instant?

    var isAway: Bool { awaySince != nil }

    /// Every player seated at `table`, in join order.
    static func all(at table: RoomTable<GuessRules>) -> [SeatedPlayer] {
        let round = table.rules.currentRound
        return table.seats.roster.members.values.sorted { $0.order < $1.order }.map { member in
            SeatedPlayer(
                player: member.player, peer: member.peer, guessesThisRound: round?.guesses(by: member.player.id) ?? 0,
                wins: table.rules.scoreboard.entry(for: member.player.id)?.wins ?? 0, awaySince: table.seats.away[member.player.id])
        }
    }
}

extension RoomHost where Rules == GuessRules {
    /// Every player seated, in join order.
    var seated: [SeatedPlayer] { withTable(SeatedPlayer.all(at:)) }

    /// The current round, secret included; nil before the first.
    var currentRound: Round? { rules.currentRound }
}
