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
    /// Addresses whose connections were refused for too many handshakes, and when that was
    /// last logged: one log line per address a minute, however many connections it opens.
    var refusalsLogged: [String: ContinuousClock.Instant] = [:]

    /// How many accepted connections are in their handshake, from `address` and in all.
    func handshakes(from address: String) -> (fromAddress: Int, total: Int) {
        var fromAddress = 0
        var total = 0
        for record in links.values {
            switch record.phase {
            case .awaitingHello, .deciding:
                total += 1
                if record.connection.remoteAddress == address { fromAddress += 1 }
            case .inviting, .connected:
                break
            }
        }
        return (fromAddress, total)
    }

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
    /// Since when the connection has been unwritable (more than the high water mark queued for
    /// the peer); nil while it is writable.
    var backloggedSince: ContinuousClock.Instant?
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
