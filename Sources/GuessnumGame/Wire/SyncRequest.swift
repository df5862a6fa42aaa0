/// `guessnum.v1.sync` — a guest asks for a fresh ``WelcomeMessage`` (guest → host), for
/// instance because it started listening after the first one arrived.
public struct SyncRequest: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.sync"

    /// Creates the request.
    public init() {}
}
