/// A `backlogChanged` post: `peer` became backlogged, or drained.
///
/// A backlogged peer has more than ``SessionConfiguration/backlogHighWaterMark`` bytes waiting
/// for it; it drains when fewer than ``SessionConfiguration/backlogLowWaterMark`` are left.
public struct PeerBacklogChange: Sendable, Hashable {
    /// The remote peer.
    public let peer: PeerID
    /// True when it became backlogged, false when it drained.
    public let isBacklogged: Bool

    /// A change, for posting and for tests.
    public init(peer: PeerID, isBacklogged: Bool) {
        self.peer = peer
        self.isBacklogged = isBacklogged
    }
}
