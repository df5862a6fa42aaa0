import Foundation

/// Where one message goes once the lock is let go: the frames are handed to connections outside
/// it, and on links with message resume in exactly the order the ledger numbered them.
struct Outbox {
    /// Connections that take the frame as it is: links without message resume, and links whose
    /// writing this call claimed and whose queue held only this frame.
    var connections = InlineFirst<any Connection>()
    /// Links whose writing this call claimed and whose queue was not empty: the frames, in order.
    var batches: [(any Connection, [EncodedFrame])] = []
    /// The peers whose writing this call claimed: their queues are taken again once it wrote.
    var writers = InlineFirst<PeerID>()
    /// What else is to be done (a link closed, a line logged).
    var effects = SessionEffects()

    /// An empty outbox for up to `count` peers (a broadcast to every connected peer): its lists
    /// are made at that size once they hold two (``InlineFirst/expect(_:)``).
    init(expecting count: Int = 0) {
        connections.expect(count)
        writers.expect(count)
    }
}

/// Messages on links with message resume: numbered in the peer's ``MessageLedger``, handed to
/// the link by one thread at a time (so the wire carries them in their numbers' order, whoever
/// sends), kept until acknowledged, and sent again after a drop.
extension Session {
    /// The limits of a ledger, from the configuration.
    var retentionLimits: (messages: Int, bytes: Int) {
        (configuration.maximumRetainedMessages, configuration.maximumRetainedBytes)
    }

    /// How many messages a side receives before it acknowledges them without waiting for a
    /// quiet moment.
    static var acknowledgeEvery: UInt64 { 64 }

    /// A message of at least this many bytes is acknowledged as soon as it arrives: its sender
    /// keeps it until then, and it need not wait for 63 more or a quiet moment (a room's welcome,
    /// some 3.2 KB at 10,000 players, stayed with the host for each of them that long). A guess,
    /// a verdict and a room's broadcast (up to ~1.1 KB) are smaller and wait for the count.
    static var acknowledgeAtOnceBytes: Int { 2048 }

    /// Routes `frame` to `peer`, connected through link `id`, under the lock; the link last sent at `now`.
    func route(
        _ frame: EncodedFrame, to peer: PeerID, via id: ObjectIdentifier, at now: ContinuousClock.Instant, state: inout SessionState, outbox: inout Outbox
    ) {
        guard let index = state.links.index(forKey: id) else { return }
        let (resume, connection) = state.withLink(at: index) { link in
            link.lastSent = now
            return (link.resume, link.connection)
        }
        guard let resume else {
            outbox.connections.append(connection)
            return
        }
        let synced = if case .synced = resume { true } else { false }
        // The common case: nobody writes for the peer, so this call does, and queues nothing.
        let handoff = state.ledgers[peer, default: MessageLedger()].send(frame, synced: synced, limits: retentionLimits)
        if !handoff.kept {
            guard synced else {
                // A peer that keeps the protocol sends its RESUME at once: this one let more
                // pile up than may be kept.
                violate(because: "no resume while \(retentionLimits.messages) messages waited for it", on: id, record: state.links.values[index],
                        state: &state, effects: &outbox.effects)
                return
            }
            outbox.effects.log(.notice, "Peer acknowledges too little; its messages are no longer kept for a resume.", .about(peer: peer.displayName))
        }
        switch handoff.toWrite {
        case nil: return
        case .message?: outbox.connections.append(connection)
        case .queuedThenMessage(let frames)?: outbox.batches.append((connection, frames))
        }
        outbox.writers.append(peer)
    }

    /// Hands what `outbox` holds to the connections (`frame` to its ``Outbox/connections`` in one
    /// broadcast when there are several), then writes for its writers until their queues are empty.
    func write(_ frame: EncodedFrame, _ outbox: Outbox) {
        if let connection = outbox.connections.only {
            // One recipient (a reply, usually from the sender's own event loop) takes the
            // connection's direct path, which writes at once; several share one broadcast.
            connection.send(frame)
        } else if !outbox.connections.isEmpty {
            transport.broadcast(frame, to: outbox.connections.all)
        }
        for (connection, frames) in outbox.batches {
            for frame in frames { connection.send(frame) }
        }
        if let writer = outbox.writers.only {
            finishWriting(writer)
        } else if !outbox.writers.isEmpty {
            finishWriting(outbox.writers.all)
        }
        outbox.effects.perform(on: self)
    }

    /// Writes what was queued for `peers` meanwhile, whose writing this thread claimed, until
    /// nothing is left; then lets go of the claims.
    func finishWriting(_ peers: [PeerID]) {
        var peers = peers
        while !peers.isEmpty {
            let batches = state.withLock { state in
                peers.compactMap { peer in state.takeUnwritten(for: peer).map { (peer, $0.connection, $0.frames) } }
            }
            for (_, connection, frames) in batches {
                for frame in frames { connection.send(frame) }
            }
            peers = batches.map(\.0)
        }
    }

    /// What `finishWriting` does for several peers, for one (the common case) without the arrays.
    func finishWriting(_ peer: PeerID) {
        while let (connection, frames) = state.withLock({ $0.takeUnwritten(for: peer) }) {
            for frame in frames { connection.send(frame) }
        }
    }

    /// The peer's RESUME on link `id`: the link syncs, and what the peer did not get goes out
    /// first, in order.
    func syncLink(
        _ id: ObjectIdentifier, of peer: PeerID, with resume: Frame.Resume, record: LinkRecord, state: inout SessionState, effects: inout SessionEffects
    ) {
        guard case .awaitingPeer(let told, let linkStart) = record.resume else {
            return violate(.resume(resume), on: id, record: record, state: &state, effects: &effects)
        }
        let outcome = state.ledgers[peer, default: MessageLedger()].sync(with: resume, told: told, linkStart: linkStart, incarnation: incarnation)
        switch outcome {
        case .violation(let why):
            return violate(.resume(resume), on: id, record: record, why: why, state: &state, effects: &effects)
        case .resumed(let resent) where !resent.isEmpty:
            effects.log(.info, "Peer connected again; the messages it had not received were sent again.",
                        .about(peer: peer.displayName).merging(["count": "\(resent.count)"]) { $1 })
            effects.post(ResentMessages(peer: peer, frames: resent, sender: localPeer))
        case .fresh(let lost) where lost > 0:
            effects.log(.notice, "Peer is a new session; messages sent to its previous one were not delivered.",
                        .about(peer: peer.displayName).merging(["count": "\(lost)"]) { $1 })
        case .resumed, .fresh:
            break
        }
        state.links[id]?.resume = .synced
        guard let frames = state.ledgers[peer]?.claimQueued() else { return }
        for frame in frames { effects.send(frame, on: record.connection) }
        effects.finishWriting(peer)
    }

    /// Forgets the pairing with `peer`: it left on purpose, or was let go here.
    func forgetMessages(of peer: PeerID, state: inout SessionState) {
        state.ledgers[peer]?.forget()
    }
}

extension SessionState {
    /// The frames queued for `peer` meanwhile, with the connection to write them to, for the
    /// thread that claimed its writing; nil (and the claim let go) when nothing is left, or
    /// the peer's link is gone or has not synced.
    mutating func takeUnwritten(for peer: PeerID) -> (connection: any Connection, frames: [EncodedFrame])? {
        // Nearly always nothing was queued meanwhile: the claim is let go at once, the link not
        // looked up (with nothing queued, a link gone or not synced ends the same way).
        if withLedger(of: peer, { $0.letGoIfNothingQueued() }) ?? true { return nil }
        guard let id = connectedLinks[peer], let index = links.index(forKey: id), case .synced? = withLink(at: index, { $0.resume }) else {
            ledgers[peer]?.isWriting = false
            return nil
        }
        guard let frames = ledgers[peer]?.takeQueued() else { return nil }
        return (withLink(at: index) { $0.connection }, frames)
    }

    /// Notes which peers are away, and forgets the ledgers of those away for longer than `window`.
    ///
    /// It walks the ledgers by index and marks each in place: changing one while a `for` loop
    /// iterated the dictionary copied the whole dictionary (the loop held its storage), every
    /// player's ledger, at each tick where a peer had just gone away.
    mutating func expireLedgers(now: ContinuousClock.Instant, window: Duration) {
        var expired: [PeerID] = []
        var index = ledgers.startIndex
        while index != ledgers.endIndex {
            let peer = ledgers.keys[index]
            if connectedLinks[peer] == nil {
                if let since = ledgers.values[index].awaySince {
                    if now - since > window, !ledgers.values[index].isWriting { expired.append(peer) }
                } else {
                    ledgers.values[index].awaySince = now
                }
            }
            ledgers.formIndex(after: &index)
        }
        for peer in expired { ledgers[peer] = nil }
    }
}
