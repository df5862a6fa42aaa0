import Foundation
import SafeText

/// A player as messages name it: the peer's stable identity plus its display name, unique in
/// the game ("bob", "bob (2)").
///
/// ``name`` is kept as received; show ``displayText``, which has control characters replaced.
public struct PlayerRef: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The peer's identity (`PeerID.identity`).
    public let id: UUID
    /// The name unique in the game, as the host assigned it.
    public let name: String

    /// Creates a reference.
    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }

    /// The name, safe to print.
    public var displayText: String { TerminalText.sanitized(name) }

    public var description: String { displayText }
}
