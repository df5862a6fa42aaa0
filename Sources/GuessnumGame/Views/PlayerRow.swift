import Foundation
import SafeText

/// One line of the player list.
public struct PlayerRow: Sendable, Hashable, Identifiable {
    /// Where a player stands.
    public enum Presence: String, Sendable, Hashable {
        /// Joining: the invitation is under way.
        case connecting
        /// Playing.
        case connected
        /// The link dropped; the host holds the seat for a while.
        case away
        /// Left or lost.
        case gone
    }

    /// The player's identity.
    public let id: UUID
    /// The name: unique in the game once the game has named it, the peer's own before.
    public internal(set) var name: String
    /// Where the player stands.
    public internal(set) var presence: Presence
    /// Rounds won.
    public internal(set) var wins: Int
    /// Counted guesses in the current round.
    public internal(set) var guessesThisRound: Int
    /// When the player first appeared, for a stable order.
    let order: UInt64

    /// "bob (2) — connected, 1 win, 3 guesses this round", safe to print.
    public var displayText: String {
        let wins = "\(wins) win\(wins == 1 ? "" : "s")"
        let guesses = "\(guessesThisRound) guess\(guessesThisRound == 1 ? "" : "es") this round"
        return "\(TerminalText.sanitized(name)) — \(presence.rawValue), \(wins), \(guesses)"
    }
}
