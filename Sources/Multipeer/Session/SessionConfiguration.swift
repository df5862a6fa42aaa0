/// Limits and timings of a ``Session``. The defaults suit a LAN game.
public struct SessionConfiguration: Sendable, Hashable {
    /// The largest frame accepted from a peer, counting the kind byte and body (64 KiB).
    public var maximumFrameLength = WireProtocol.defaultMaximumFrameLength
    /// A heartbeat goes to a peer when nothing else was sent to it for this long (1 s).
    public var heartbeatInterval: Duration = .seconds(1)
    /// A peer not heard from for this long is disconnected as lost (2.5 s). With the check
    /// running every quarter of ``heartbeatInterval``, a vanished peer is noticed within 3 s.
    public var peerTimeout: Duration = .milliseconds(2500)
    /// A connecting client must say hello within this long or be dropped (5 s).
    public var handshakeTimeout: Duration = .seconds(5)
    /// How long ``Session/invite(_:context:timeout:)`` waits by default (30 s).
    public var invitationTimeout: Duration = .seconds(30)
    /// The longest an invitation may stay undecided, whatever the inviter asked for (5 min).
    public var maximumInvitationTimeout: Duration = .seconds(300)

    /// The defaults.
    public init() {}

    /// How often the session checks deadlines and sends heartbeats.
    var tickInterval: Duration { min(heartbeatInterval, peerTimeout) / 4 }

    var linkOptions: LinkOptions { LinkOptions(maximumFrameLength: maximumFrameLength) }
}
