import Multipeer

extension SessionConfiguration {
    /// A session for a game's host or player: games speak in messages only, so the session
    /// announces no byte streams and no resources, and a peer that opens a stream or offers a
    /// file anyway breaks the protocol and is disconnected, before anything of it is kept in
    /// memory (an attacker could otherwise park 64 unread streams of 256 KiB on every seat).
    /// A link hands TLS at most ``roomFlushBytes`` at a time (``maximumFlushBytes``): a welcome
    /// written at once would leave its size in every player's TLS buffer for the game's length.
    public static var room: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.features = WireProtocol.messagesOnly
        configuration.maximumFlushBytes = roomFlushBytes
        return configuration
    }

    /// A game link's flush limit: a verdict and a tick's broadcast to a big game (about 1.1 KB)
    /// go out whole; a welcome or a replay, in pieces.
    public static let roomFlushBytes = 2048
}
