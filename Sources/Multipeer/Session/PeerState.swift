/// Where a remote peer stands with a session.
public enum PeerState: String, Sendable, Hashable, CustomStringConvertible {
    /// Not connected (never was, left, or was lost).
    case notConnected
    /// An invitation is under way.
    case connecting
    /// Connected: messages flow both ways.
    case connected

    public var description: String { rawValue }
}

/// Why a peer's state changed to ``PeerState/notConnected``.
public enum DisconnectReason: Sendable, Hashable {
    /// The peer said goodbye, perhaps with a reason.
    case goodbye(String?)
    /// This side disconnected the peer.
    case localDisconnect
    /// The invitation was declined or timed out.
    case invitationEnded
    /// The connection failed or the peer stopped answering; the error says how.
    case lost(MultipeerError)
}

/// A `stateChanged` post: `peer` moved to `state`.
public struct PeerStateChange: Sendable, Hashable {
    /// The remote peer.
    public let peer: PeerID
    /// Its new state.
    public let state: PeerState
    /// Why it is no longer connected; nil unless `state` is ``PeerState/notConnected``.
    public let reason: DisconnectReason?

    /// A change, for posting and for tests.
    public init(peer: PeerID, state: PeerState, reason: DisconnectReason? = nil) {
        self.peer = peer
        self.state = state
        self.reason = reason
    }
}
