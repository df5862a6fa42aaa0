import Foundation

/// A player the host removed, as the host is told of it: who, and from where.
public struct PlayerRemoval: Sendable, Hashable {
    /// The player, under the name they had.
    public let player: PlayerRef
    /// The address their link came from, when known: newcomers from its network are turned away
    /// too while the removal lasts.
    public let address: String?

    /// A removal of `player`, whose link came from `address`.
    public init(player: PlayerRef, address: String?) {
        self.player = player
        self.address = address
    }
}
