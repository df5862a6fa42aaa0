import Foundation

/// A change to the player list, posted as ``EventName/playerListChanged``.
public enum PlayerListChange: Sendable, Hashable {
    /// The row is new or changed.
    case updated(PlayerRow)
    /// The row with this identity is no longer listed.
    case removed(UUID)
}
