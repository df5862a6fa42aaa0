import GuessnumGame
import Multipeer
import SafeText

/// How a player's seat in a game, of any kind, was given up.
enum SeatEnding: Sendable, Equatable {
    /// The player left (`/leave`, `/quit`, the end of input).
    case left
    /// The host removed the player.
    case removed
    /// The host ended the game.
    case ended
    /// The connection was lost, or the host left without saying why.
    case lost

    /// How the host's leaving ends the seat, and the sentence that says so; `host` is the name
    /// the game was joined under.
    static func of(_ change: PeerStateChange, host: String) -> (SeatEnding, String) {
        switch change.reason {
        case .goodbye(RoomProtocol.removalReason?): (.removed, "You were removed from the game by the host.")
        case .goodbye(RoomProtocol.endReason?): (.ended, "\(host) ended the game.")
        case .goodbye(let said?) where said.hasSuffix("."):
            // A whole sentence: a full game, a bad name, a flood cut off.
            (.lost, "The host closed the link: \(TerminalText.sanitized(said))")
        case .goodbye(let said?): (.lost, "The host left: \(TerminalText.sanitized(said)).")
        case .lost(let error): (.lost, "The connection to the host was lost: \(error.message)")
        default: (.lost, "The host left.")
        }
    }
}
