/// `guessnum.v1.sync` — a guest asks for the state of the game (guest → host), for instance
/// because it started listening after the welcome arrived, or came back after a drop.
///
/// With ``after`` (the sequence number of the last broadcast item the guest has), the host
/// answers with a `ReplayMessage` of what came after it while it still keeps those items, and
/// with a fresh `WelcomeMessage` otherwise; without it, always with a welcome.
public struct SyncRequest: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.sync"

    /// The sequence number of the last broadcast item the guest has seen, if it wants only
    /// what came after.
    public var after: UInt64?

    /// Creates the request.
    public init(after: UInt64? = nil) {
        self.after = after
    }
}
