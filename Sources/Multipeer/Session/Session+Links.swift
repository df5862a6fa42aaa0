import Foundation
import Logging

/// What the session does with each connection's events: the protocol's decisions, above the
/// transport's framing.
extension Session {
    func linkOpened(_ handler: LinkHandler, _ connection: any Connection) {
        let now = clock.now
        // The network an accepted connection counts in, worked out once, outside the lock.
        let network = handler.outgoing == nil ? RemoteAddress.limitGroup(of: connection.remoteAddress) : ""
        let effects = state.withLock { state in
            var effects = SessionEffects()
            if state.isClosed {
                effects.close(connection)
                handler.outgoing?.outcome.resolve(.failure(.sessionClosed))
                return effects
            }
            if let outgoing = handler.outgoing {
                if let refusal = refusalBeforeHello(answering: outgoing, on: connection) {
                    // Checked before the race is claimed: another key at one of a peer's addresses
                    // fails that address only, and the others go on.
                    effects.close(connection)
                    outgoing.outcome.resolve(.failure(refusal))
                    if let peer = outgoing.expectedPeer, !outgoing.isProbe, outgoing.race == nil { effects.post(peer, .notConnected, .invitationEnded) }
                    return effects
                }
                if let race = outgoing.race, !race.claim(handler.id) {
                    // Another address of the same invitation opened first.
                    effects.close(connection)
                    outgoing.outcome.resolve(.failure(.cancelled))
                    return effects
                }
                if outgoing.isProbe {
                    // It answered (and proved the expected identity, if one was expected): that
                    // is all a probe asks. What it proved is kept for ``identify(_:timeout:)``.
                    effects.close(connection)
                    outgoing.probedKey.resolve(connection.provenPeer)
                    outgoing.outcome.resolve(.success(.connected(outgoing.expectedPeer ?? localPeer)))
                    return effects
                }
                state.insertLink(handler.id, LinkRecord(connection: connection, phase: .inviting(outgoing), now: now))
                if let peer = outgoing.expectedPeer, state.pendingLinks[peer] == nil { state.pendingLinks[peer] = handler.id }
                effects.send(outgoing.hello(from: localPeer, features: configuration.features, at: now), on: connection)
            } else {
                switch handshakePlace(for: connection, from: network, state: &state, effects: &effects) {
                case .begin:
                    state.insertLink(handler.id, LinkRecord(connection: connection, phase: .awaitingHello(since: now), now: now))
                    state.handshaking[handler.id] = network
                case .wait:
                    state.insertLink(handler.id, LinkRecord(connection: connection, phase: .awaitingHello(since: now), now: now))
                    state.wait(handler.id, from: network)
                    waitingLinks.store(true, ordering: .releasing)
                    effects.pauseReading(connection)
                case .refuse(let refusal):
                    effects.close(connection)
                    let address = connection.remoteAddress
                    if state.refusalsLogged[address] == nil {
                        state.refusalsLogged[address] = now
                        effects.log(.notice, "Connection refused: too many handshakes.", [
                            "peer": .string(connection.remoteDescription), "address": .string(address), "reason": .string(refusal),
                        ])
                    }
                }
            }
            return effects
        }
        effects.perform(on: self)
    }

    /// Whether links wait for a handshake place (a hint read without the lock; see ``waitingLinks``).
    var mayHaveWaitingLinks: Bool { waitingLinks.load(ordering: .acquiring) }

    /// Lets the links waiting for a handshake place into the places free, oldest first, and
    /// reads from them again.
    func admitWaitingLinks() {
        let admitted = state.withLock { state in
            let admitted = state.admitWaiting(now: clock.now, places: configuration.maximumHandshakes)
            if state.waiting.isEmpty { waitingLinks.store(false, ordering: .releasing) }
            return admitted
        }
        for connection in admitted { connection.resumeReading() }
    }

    /// What an accepted connection may do: begin its handshake, wait for a place, or be closed.
    enum HandshakePlace {
        case begin, wait
        case refuse(String)
    }

    /// Finds an accepted connection a handshake place. Past the limit per address it is refused
    /// (an IPv6 address counts with its whole /64, which one machine can take addresses from at
    /// will; connections waiting count too). When every place is taken, the oldest silent
    /// connection of the network holding the most is closed to make room (so that a flood from a
    /// few networks cannot lock out the rest); when no network holds more than this one's share,
    /// the newcomer waits for a place, behind any already waiting, or is refused when
    /// ``SessionConfiguration/maximumWaitingConnections`` wait already.
    private func handshakePlace(
        for connection: any Connection, from network: String, state: inout SessionState, effects: inout SessionEffects
    ) -> HandshakePlace {
        let (fromNetwork, total) = state.handshakes(from: network)
        if fromNetwork >= configuration.maximumHandshakesPerAddress {
            return .refuse("\(fromNetwork) handshakes from this address already (limit \(configuration.maximumHandshakesPerAddress))")
        }
        if total < configuration.maximumHandshakes, state.waiting.isEmpty { return .begin }
        if total >= configuration.maximumHandshakes, let victim = state.handshakeToEvict(for: network), let evicted = state.removeLink(victim) {
            effects.close(evicted.connection)
            return .begin
        }
        guard state.waiting.count >= configuration.maximumWaitingConnections else { return .wait }
        return .refuse("\(total) handshakes under way and \(state.waiting.count) waiting already "
            + "(limits \(configuration.maximumHandshakes) and \(configuration.maximumWaitingConnections))")
    }

    func link(_ handler: LinkHandler, received frame: Frame) {
        let now = clock.now
        // The hot path: data from a connected peer takes one short lock and one post.
        if case .data(let messageType, let payload) = frame {
            let (delivery, acknowledge) = state.withLock {
                $0.receiveData(
                    on: handler.id, messageType: messageType, payload: payload, at: now,
                    acknowledgingEvery: Self.acknowledgeEvery, orAtLeast: Self.acknowledgeAtOnceBytes)
            }
            if let acknowledge { acknowledge.connection.send(FrameCodec.encode(.acknowledge(received: acknowledge.count))) }
            switch delivery {
            case .post(let data): events.post(.dataReceived, data); return
            case .held: return
            case .elsewhere: break
            }
        }
        let effects = state.withLock { state in
            var effects = SessionEffects()
            guard let record = state.links[handler.id] else { return effects }
            state.links[handler.id]?.lastHeard = now
            handle(frame, on: handler, record: record, now: now, state: &state, effects: &effects)
            return effects
        }
        effects.perform(on: self)
    }

    func linkClosed(_ handler: LinkHandler, error: MultipeerError?) {
        let effects = state.withLock { state in
            var effects = SessionEffects()
            // No record: this side removed the link already, and settled its invitation then.
            guard let record = state.linkClosed(handler.id) else {
                if state.closing.isEmpty { state.drained?.resolve(()) }
                return effects
            }
            let source = record.connection.remoteDescription
            switch record.phase {
            case .awaitingHello:
                if let error { effects.diagnose("Connection failed before its handshake.", source, error) }
            case .deciding(let invitation):
                if let error, error.code.isPeerMisbehaviour {
                    effects.diagnose("Inviter sent bad data; connection closed.", source, error)
                }
                if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
            case .inviting(let outgoing):
                if let error, error.code.isPeerMisbehaviour {
                    effects.diagnose("Host sent bad data; connection closed.", source, error)
                }
                effects.resolve(outgoing, .failure(error ?? .connectionClosed("before the invitation was answered")))
                if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
            case .connected(let peer):
                if let error, error.code == .peerNotReading {
                    effects.log(.notice, "Peer stopped reading; disconnected.", Logger.Metadata.about(peer: peer.displayName, error).merging([
                        "address": .string(record.connection.remoteDescription), "reason": .string(Self.notReadingReason),
                    ]) { $1 })
                } else if let error, error.code.isPeerMisbehaviour {
                    effects.diagnose("Peer sent bad data; connection closed.", peer.displayName, error)
                }
                let cause = error ?? .connectionClosed("without a goodbye from \(peer.displayName)")
                effects.post(peer, .notConnected, .lost(cause))
            }
            return effects
        }
        effects.perform(on: self)
    }

    private func handle(
        _ frame: Frame, on handler: LinkHandler, record: LinkRecord, now: ContinuousClock.Instant,
        state: inout SessionState, effects: inout SessionEffects
    ) {
        let id = handler.id
        let connection = record.connection
        switch (record.phase, frame) {
        case (_, .heartbeat):
            // A peer sends one after a quiet heartbeat interval: far more is a flood, each frame
            // taking this lock from everyone else's messages.
            let window = record.heartbeats
            if now - window.since >= .seconds(1) {
                state.links[id]?.heartbeats = (now, 1)
            } else if window.count >= Self.heartbeatsPerSecond {
                violate(frame, on: id, record: record, why: "more than \(Self.heartbeatsPerSecond) heartbeats in a second", state: &state, effects: &effects)
            } else {
                state.links[id]?.heartbeats.count += 1
            }

        case (.awaitingHello, .hello(let hello)):
            receiveHello(hello, on: handler, connection: connection, now: now, state: &state, effects: &effects)

        case (.deciding(let invitation), .goodbye):
            _ = state.removeLink(id)
            effects.close(connection)
            if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }

        case (.inviting(let outgoing), .accept(let accept)):
            guard accept.version == WireProtocol.version else {
                effects.diagnose("Host speaks another protocol version.", connection.remoteDescription, .unsupportedProtocolVersion(accept.version))
                _ = state.removeLink(id)
                effects.close(connection, after: .goodbye(reason: "unsupported protocol version"))
                effects.resolve(outgoing, .failure(.unsupportedProtocolVersion(accept.version)))
                if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
                return
            }
            let peer = accept.peer
            if let refusal = refusal(of: peer, answering: outgoing, on: connection) {
                if refusal.code != .hostRefused {
                    effects.diagnose("Host is not the peer it should be.", connection.remoteDescription, refusal)
                }
                _ = state.removeLink(id)
                effects.close(connection, after: .goodbye(reason: refusal.message))
                effects.resolve(outgoing, .failure(refusal))
                if let expected = outgoing.expectedPeer { effects.post(expected, .notConnected, .invitationEnded) }
                return
            }
            var answer = Data()
            if let answering = outgoing.answer {
                switch answering(peer, accept.challenge) {
                case .success(let bytes): answer = bytes
                case .failure(let refusal):
                    let error = MultipeerError(.hostRefused, refusal.reason)
                    _ = state.removeLink(id)
                    effects.close(connection, after: .goodbye(reason: refusal.reason))
                    effects.resolve(outgoing, .failure(error))
                    if let expected = outgoing.expectedPeer { effects.post(expected, .notConnected, .invitationEnded) }
                    return
                }
            }
            if let expected = outgoing.expectedPeer, expected != peer { effects.post(expected, .notConnected, .invitationEnded) }
            _ = state.removeLink(id)
            var record = record
            record.codeNonces = CodeNonces(inviter: outgoing.codeNonce, advertiser: accept.codeNonce, localIsInviter: true)
            record.streams.peerFeatures = accept.features
            record.streams.localFeatures = configuration.features
            // The nonce (and the answer) go out before anything else this side sends on the link.
            effects.send(.reveal(nonce: outgoing.codeNonce, answer: answer), on: connection)
            connect(peer, via: id, record: record, announce: outgoing.expectedPeer != peer, state: &state, effects: &effects)
            effects.resolve(outgoing, .success(.connected(peer)))

        case (.inviting(let outgoing), .decline(let decline)):
            _ = state.removeLink(id)
            effects.close(connection)
            switch decline.cause {
            case .refused: effects.resolve(outgoing, .success(.declined(reason: decline.reason)))
            case .timedOut: effects.resolve(outgoing, .success(.timedOut))
            case .unsupportedVersion:
                let error = MultipeerError(.unsupportedProtocolVersion, decline.reason.map { "The host refused this program's protocol: \($0)." }
                    ?? "The host does not speak protocol version \(WireProtocol.version); update both programs to the same release.")
                effects.diagnose("Host refused our protocol version.", connection.remoteDescription, error)
                effects.resolve(outgoing, .failure(error))
            }
            if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }

        case (.inviting(let outgoing), .goodbye(let reason)):
            _ = state.removeLink(id)
            effects.close(connection)
            effects.resolve(outgoing, .failure(.connectionClosed("before the invitation was answered\(reason.map { " (\($0))" } ?? "")")))
            if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }

        case (.connected(let peer), .goodbye(let reason)):
            _ = state.removeLink(id)
            forgetMessages(of: peer, state: &state)
            effects.close(connection)
            effects.post(peer, .notConnected, .goodbye(reason))

        case (.deciding(let invitation), .reveal(let nonce, let answer)):
            guard let challenge = record.challenge, let awaited = record.awaitedReveal else {
                return violate(frame, on: id, record: record, state: &state, effects: &effects)
            }
            guard VerificationCode.nonce(nonce, matches: awaited.commitment) else {
                return violate(frame, on: id, record: record, why: "a code nonce that does not match its commitment", state: &state, effects: &effects)
            }
            _ = state.removeLink(id)
            if let refusal = challenge.check(answer) {
                effects.close(connection, after: .goodbye(reason: refusal))
                if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
                return
            }
            var record = record
            record.challenge = nil
            record.awaitedReveal = nil
            record.codeNonces = CodeNonces(inviter: nonce, advertiser: awaited.advertiserNonce, localIsInviter: false)
            connect(invitation.peer, via: id, record: record, announce: false, state: &state, effects: &effects)

        case (.connected, .reveal(let nonce, _)):
            guard let awaited = record.awaitedReveal else {
                return violate(frame, on: id, record: record, state: &state, effects: &effects)
            }
            guard VerificationCode.nonce(nonce, matches: awaited.commitment) else {
                return violate(frame, on: id, record: record, why: "a code nonce that does not match its commitment", state: &state, effects: &effects)
            }
            state.links[id]?.awaitedReveal = nil
            state.links[id]?.codeNonces = CodeNonces(inviter: nonce, advertiser: awaited.advertiserNonce, localIsInviter: false)

        case (.connected(let peer), _) where frame.isStreamFrame:
            receiveStreamFrame(frame, from: peer, on: id, record: record, state: &state, effects: &effects)

        case (.connected(let peer), .data(let messageType, let payload)):
            // Reached when the hot path raced with a state change (deliver it all the same), or
            // for data before the peer's RESUME on a link with message resume.
            switch record.resume {
            case .awaitingPeer?:
                return violate(frame, on: id, record: record, why: "a data frame before its resume", state: &state, effects: &effects)
            case .synced?:
                if let count = state.ledgers[peer]?.receive(acknowledgingEvery: Self.acknowledgeEvery, large: payload.count >= Self.acknowledgeAtOnceBytes) {
                    effects.send(.acknowledge(received: count), on: connection)
                }
            case nil:
                break
            }
            effects.deliver(ReceivedData(peer: peer, messageType: messageType, payload: payload))

        case (.connected(let peer), .resume(let resume)) where record.resume != nil:
            syncLink(id, of: peer, with: resume, record: record, state: &state, effects: &effects)

        case (.connected(let peer), .acknowledge(let count)):
            guard case .synced? = record.resume else {
                return violate(frame, on: id, record: record, state: &state, effects: &effects)
            }
            guard state.ledgers[peer]?.acknowledge(count) == true else {
                return violate(frame, on: id, record: record, why: "an acknowledgement of \(count) messages, more than were sent or fewer than before",
                               state: &state, effects: &effects)
            }

        default:
            violate(frame, on: id, record: record, state: &state, effects: &effects)
        }
    }

    func violate(
        _ frame: Frame, on id: ObjectIdentifier, record: LinkRecord, why: String? = nil,
        state: inout SessionState, effects: inout SessionEffects
    ) {
        violate(because: why ?? "an unexpected \(frame.kindName) frame", on: id, record: record, state: &state, effects: &effects)
    }

    /// The peer on link `id` broke the protocol (`why` says how, after "Peer broke the
    /// protocol"): the link is closed with a goodbye, and whoever waited on it is told.
    func violate(because why: String, on id: ObjectIdentifier, record: LinkRecord, state: inout SessionState, effects: inout SessionEffects) {
        let error = MultipeerError.protocolViolation(why)
        let source: String
        switch record.phase {
        case .connected(let peer): source = peer.displayName
        case .deciding(let invitation): source = invitation.peer.displayName
        case .inviting, .awaitingHello: source = record.connection.remoteDescription
        }
        effects.diagnose("Peer broke the protocol; connection closed.", source, error)
        _ = state.removeLink(id)
        effects.close(record.connection, after: .goodbye(reason: "protocol violation"))
        switch record.phase {
        case .connected(let peer):
            effects.post(peer, .notConnected, .lost(error))
        case .inviting(let outgoing):
            effects.resolve(outgoing, .failure(error))
            if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
        case .deciding(let invitation):
            if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
        case .awaitingHello:
            break
        }
    }
}
