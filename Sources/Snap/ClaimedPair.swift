import Rooms

/// The pair the latest snap took, and who called snap on it, first caller first: until the next
/// card is turned, a call with no pair showing is late rather than wrong.
struct ClaimedPair: Sendable, Hashable, Codable {
    /// The rank of the pair.
    var rank: Card.Rank
    /// Who called, in the order the host heard them: the one who took the piles first.
    var callers: [PlayerRef]

    /// Whether `player` already called on this pair.
    func wasCalled(by player: PlayerRef) -> Bool {
        callers.contains { $0.id == player.id }
    }
}
