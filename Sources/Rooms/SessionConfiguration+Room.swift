import Multipeer

extension SessionConfiguration {
    /// A session for a game's host or player: games speak in messages only, so the session
    /// announces no byte streams and no resources, and a peer that opens a stream or offers a
    /// file anyway breaks the protocol and is disconnected, before anything of it is kept in
    /// memory (an attacker could otherwise park 64 unread streams of 256 KiB on every seat).
    public static var room: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.features = WireProtocol.messagesOnly
        return configuration
    }
}
