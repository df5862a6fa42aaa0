/// Limits and timings of a ``Session``. The defaults suit a LAN game.
public struct SessionConfiguration: Sendable, Hashable {
    /// The largest frame accepted from a peer, counting the kind byte and body (64 KiB).
    public var maximumFrameLength = WireProtocol.defaultMaximumFrameLength
    /// A heartbeat goes to a peer when nothing else was sent to it for this long (1 s).
    public var heartbeatInterval: Duration = .seconds(1)
    /// A peer not heard from for this long is disconnected as lost (2.5 s). With the check
    /// running every quarter of ``heartbeatInterval``, a vanished peer is noticed within 3 s
    /// (by the session's ``Session/clock``).
    public var peerTimeout: Duration = .milliseconds(2500)
    /// A connecting client must say hello within this long or be dropped (5 s).
    public var handshakeTimeout: Duration = .seconds(5)
    /// How long ``Session/invite(_:context:timeout:)`` waits by default (30 s).
    public var invitationTimeout: Duration = .seconds(30)
    /// The longest an invitation may stay undecided, whatever the inviter asked for (5 min).
    public var maximumInvitationTimeout: Duration = .seconds(300)

    /// Bytes queued for a peer above which it is backlogged: it is not reading as fast as it is
    /// sent to (1 MiB). See ``Session/isBacklogged(_:)``.
    public var backlogHighWaterMark = 1024 * 1024
    /// Bytes queued below which a backlogged peer has drained and is no longer backlogged (256 KiB).
    public var backlogLowWaterMark = 256 * 1024
    /// The most bytes that may wait for one peer (2 MiB): a send past it closes the peer's
    /// connection, so the memory a session spends on its peers is at most peers × this.
    public var maximumQueuedBytes = 2 * 1024 * 1024
    /// The most bytes a link hands its lower layers in one flush (``LinkOptions/maximumFlushBytes``);
    /// nil (the default): no limit. ``room``-style sessions, which send messages only, set one.
    public var maximumFlushBytes: Int?
    /// A peer backlogged for longer than this is disconnected with the goodbye reason
    /// ``Session/notReadingReason`` (5 s).
    public var backlogTimeout: Duration = .seconds(5)
    /// The most accepted connections that may be in their handshake (not yet connected) at
    /// once (16); a connection past it waits for a place (``maximumWaitingConnections``).
    ///
    /// Each place is CPU work on the event loop that owns the connection (a TLS handshake costs
    /// the host ~0.6 ms), and a loop serves every connection that is ready when it wakes: the
    /// fewer places, the shorter the batch of handshakes a connected player's message can wait
    /// behind during a join storm. In a 1,000-guest TLS storm on two cores a playing guest's p99
    /// was 22–116 ms with 64 places and 22–47 ms with 16, lower in eight pairs of nine
    /// (BENCHMARKS.md).
    public var maximumHandshakes = 16
    /// The most connections from one address that may be in their handshake, or waiting for a
    /// place in it, at once (8).
    public var maximumHandshakesPerAddress = 8
    /// The most accepted connections that may wait for a handshake place while all
    /// ``maximumHandshakes`` are taken (1,024): a join storm is served in the order it came,
    /// not turned away. A waiting connection is not read from (its bytes wait in the system's
    /// buffers, costing no work), moves into the first free place, oldest first, and is closed
    /// without a frame if it waited ``handshakeTimeout``. A connection past this is closed as
    /// soon as it is accepted.
    public var maximumWaitingConnections = 1024

    /// The features this session announces in its HELLO and ACCEPT (``WireProtocol/Feature``),
    /// all of them by default. A link has a feature only when both sides announce it, and a
    /// peer's frame of a feature the link lacks breaks the protocol (GOODBYE, link closed): an
    /// application with no use for byte streams or resources announces neither, so that no peer can
    /// open a stream or offer a file that nothing would read: it announces only message resume
    /// (``WireProtocol/messagesOnly``).
    public var features: UInt32 = WireProtocol.features

    /// The credit a reader grants each byte stream at its start, and the most bytes of one
    /// stream it holds unread (256 KiB): a reader that stops reading costs its writer at most
    /// this much. Both sides should use the same value.
    public var streamWindow = 256 * 1024
    /// The most a byte stream's window grows to while its reader keeps up (by default
    /// ``streamWindow``: it does not grow). A reader that has read a whole window in a row with
    /// never more than a quarter of it waiting doubles the window with its next grant, up to
    /// this, since the window then holds the writer back (a credit round trip per window). A
    /// reader that keeps up and then stops holds at most this much of the stream; one that falls
    /// behind or never reads holds ``streamWindow``. More in flight on a link also means longer
    /// waits for the messages behind it: ``bulkTransfer`` raises it for sessions that move files.
    /// The writer needs no setting: it sends what it is granted.
    public var maximumStreamWindow = 256 * 1024
    /// The most byte streams that may be open on one link in each direction (64): this side
    /// opens no more, and refuses a peer's stream past it with a reset.
    public var maximumStreamsPerLink = 64
    /// The largest piece of a byte stream written in one frame (16,375 bytes, and never more than
    /// a frame may carry): the link's other frames wait behind at most so much of one stream. With
    /// its frame's 9 bytes a chunk fills 16 KiB, the most one TLS record carries, so over TLS a
    /// chunk costs one record (a 16 KiB chunk cost two, the second of 9 bytes).
    public var streamChunkLength = 16 * 1024 - FrameCodec.streamDataOverhead
    /// How long a resource whose link dropped waits for the same peer to be connected again
    /// before it gives up (2 minutes): the sender then offers it anew and the receiver answers
    /// with what it already holds, so the transfer goes on instead of starting over. The
    /// receiver keeps the partial file that long.
    public var resourceResumeWindow: Duration = .seconds(120)

    /// How long the messages exchanged with a peer whose link dropped are kept for the same
    /// peer to connect again (2 minutes): on links with message resume
    /// (``WireProtocol/Feature/resume``) it then gets exactly the messages it had not received,
    /// in order, and none twice. After it, a returning peer starts afresh.
    public var messageResumeWindow: Duration = .seconds(120)
    /// The most messages kept for one peer until it acknowledges them (4,096).
    /// A peer that acknowledges so little that more wait is not resumed after a drop: its
    /// messages are no longer kept (and a link that never said RESUME is closed).
    public var maximumRetainedMessages = 4096
    /// The most bytes of messages kept for one peer until it acknowledges them (2 MiB); see
    /// ``maximumRetainedMessages``. A broadcast's bytes are shared by every peer that keeps them.
    public var maximumRetainedBytes = 2 * 1024 * 1024

    /// The defaults.
    public init() {}

    /// The bytes of a stream one frame carries: the chunk length, within the frame limit.
    var streamChunkBytes: Int { max(1, min(streamChunkLength, maximumFrameLength - 16)) }

    /// How often the session checks deadlines and sends heartbeats.
    var tickInterval: Duration { min(heartbeatInterval, peerTimeout) / 4 }

    var linkOptions: LinkOptions {
        LinkOptions(
            maximumFrameLength: maximumFrameLength, backlogLowWaterMark: backlogLowWaterMark,
            backlogHighWaterMark: backlogHighWaterMark, maximumQueuedBytes: maximumQueuedBytes, maximumFlushBytes: maximumFlushBytes)
    }
}
