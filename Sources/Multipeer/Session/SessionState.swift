import Foundation

/// Everything a ``Session`` knows, guarded by its one lock.
struct SessionState {
    /// Every open connection, by its handler's identity.
    var links: [ObjectIdentifier: LinkRecord] = [:]
    /// Connected peers and the link each is connected through.
    var connectedLinks: [PeerID: ObjectIdentifier] = [:]
    /// Peers with an invitation under way, and its link.
    var pendingLinks: [PeerID: ObjectIdentifier] = [:]
    var listener: (any Listener)?
    var policy: InvitationPolicy = .acceptAll
    var isClosed = false
    var ticker: Task<Void, Never>?
    /// Links ``Session/disconnect(reason:)`` closed and is waiting to see closed.
    var draining: Set<ObjectIdentifier> = []
    /// Settled when the last of `draining` has closed.
    var drained: OneShot<Void>?

    /// Forgets a link and every index entry that points to it.
    mutating func removeLink(_ id: ObjectIdentifier) -> LinkRecord? {
        guard let record = links.removeValue(forKey: id) else { return nil }
        switch record.phase {
        case .connected(let peer):
            if connectedLinks[peer] == id { connectedLinks[peer] = nil }
        case .deciding(let invitation):
            if pendingLinks[invitation.peer] == id { pendingLinks[invitation.peer] = nil }
        case .inviting(let outgoing):
            if let peer = outgoing.expectedPeer, pendingLinks[peer] == id { pendingLinks[peer] = nil }
        case .awaitingHello:
            break
        }
        return record
    }
}

/// One connection and where it stands.
struct LinkRecord {
    let connection: any Connection
    var phase: LinkPhase
    var lastHeard: ContinuousClock.Instant
    var lastSent: ContinuousClock.Instant
    /// Data that arrived before the peer's `connected` was posted, held so that observers
    /// always hear `connected` first; nil once it has been posted.
    var heldData: [ReceivedData]?
}

/// The stages of a connection's life.
enum LinkPhase {
    /// Accepted; waiting for the inviter's hello since the given moment.
    case awaitingHello(since: ContinuousClock.Instant)
    /// Hello received; the invitation policy is deciding.
    case deciding(Invitation)
    /// Opened by this side; hello sent, waiting for the answer.
    case inviting(OutgoingInvitation)
    /// A connected peer.
    case connected(PeerID)
}
