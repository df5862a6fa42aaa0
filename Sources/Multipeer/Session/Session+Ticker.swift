import Foundation

/// Deadlines and heartbeats: the session's clock ticks a few times a second and each tick walks
/// the links once, so no timer exists per connection.
extension Session {
    func startTicker() {
        let ticker = clock.startTicking(every: configuration.tickInterval) { [weak self] now in
            self?.tick(now: now)
        }
        state.withLock { $0.ticker = ticker }
    }

    /// Expires what is overdue and sends heartbeats where the line has been quiet (on a link
    /// with message resume, an acknowledgement instead when messages went unacknowledged).
    func tick(now: ContinuousClock.Instant) {
        let heartbeat = FrameCodec.encode(.heartbeat)
        var quiet: [(any Connection, EncodedFrame)] = []
        let effects = state.withLock { state in
            var effects = SessionEffects()
            var expired: [ObjectIdentifier] = []
            var beating: [ObjectIdentifier] = []
            for (id, record) in state.links {
                switch record.phase {
                case .awaitingHello(let since):
                    if now - since > configuration.handshakeTimeout { expired.append(id) }
                case .deciding(let invitation):
                    // An accepted one is connected as soon as its ACCEPT is handed over.
                    if now > invitation.expires, !record.isAccepted { expired.append(id) }
                case .inviting(let outgoing):
                    if now > outgoing.expires { expired.append(id) }
                case .connected:
                    if now - record.lastHeard > configuration.peerTimeout || isOverdue(record, now: now) {
                        expired.append(id)
                    } else if now - record.lastSent >= configuration.heartbeatInterval {
                        beating.append(id)
                    }
                }
            }
            for id in beating {
                guard let index = state.links.index(forKey: id) else { continue }
                state.links.values[index].lastSent = now
                let record = state.links.values[index]
                if case .synced? = record.resume, case .connected(let peer) = record.phase,
                   let count = state.ledgers[peer]?.acknowledgement() {
                    quiet.append((record.connection, FrameCodec.encode(.acknowledge(received: count))))
                } else {
                    quiet.append((record.connection, heartbeat))
                }
            }
            if !state.ledgers.isEmpty { state.expireLedgers(now: now, window: configuration.messageResumeWindow) }
            state.refusalsLogged = state.refusalsLogged.filter { now - $0.value < Self.refusalLogInterval }
            for id in expired {
                guard let record = state.removeLink(id) else { continue }
                expire(record, now: now, state: state, effects: &effects)
            }
            return effects
        }
        for (connection, frame) in quiet { connection.send(frame) }
        effects.perform(on: self)
    }

    /// How often a refused address is logged again, however many connections it opens.
    static var refusalLogInterval: Duration { .seconds(60) }

    private func expire(_ record: LinkRecord, now: ContinuousClock.Instant, state: SessionState, effects: inout SessionEffects) {
        let connection = record.connection
        switch record.phase {
        case .awaitingHello:
            effects.close(connection)
            effects.diagnose("Handshake timed out; connection closed.", connection.remoteDescription, .handshakeTimedOut(after: configuration.handshakeTimeout))
        case .deciding(let invitation) where record.challenge != nil:
            // Accepted on condition: the inviter was told yes, and never answered.
            effects.close(connection, after: .goodbye(reason: "no answer to the host's challenge before the invitation expired"))
            if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
        case .deciding(let invitation):
            effects.close(connection, after: .decline(.init(cause: .timedOut, reason: "no answer before the invitation expired")))
            if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
        case .inviting(let outgoing):
            // At once, with nothing more: a HELLO still waiting below, behind a TLS handshake the
            // host has not answered (a host stopped, then woken), must not reach it late, where it
            // would replace the inviter's newer link.
            effects.abort(connection)
            effects.resolve(outgoing, .success(.timedOut))
            if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
        case .connected(let peer) where isOverdue(record, now: now):
            dropNotReading(record, peer: peer, effects: &effects)
        case .connected(let peer):
            effects.close(connection)
            effects.post(peer, .notConnected, .lost(.peerTimedOut(peer, after: configuration.peerTimeout)))
        }
    }
}
