/// `guessnum.v1.welcome` — what a newcomer needs to play (host → one guest): the protocol
/// version, the name the host gave it, and the state of the game.
public struct WelcomeMessage: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.welcome"
    /// The game protocol version the host speaks.
    public var protocolVersion: Int
    /// The newcomer, under its name unique in the game ("bob (2)").
    public var you: PlayerRef
    /// The state of the game.
    public var game: GameState

    /// Welcomes `you` to `game`.
    public init(protocolVersion: Int = GameProtocol.version, you: PlayerRef, game: GameState) {
        self.protocolVersion = protocolVersion
        self.you = you
        self.game = game
    }
}
