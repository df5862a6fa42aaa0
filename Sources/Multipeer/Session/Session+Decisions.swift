import Foundation
import Logging

/// How a session carries out an invitation's decision: accepting (with a challenge, if any),
/// declining, or asking, and the data a link held meanwhile.
extension Session {
    // MARK: Invitation decisions

    func decide(_ invitation: Invitation, on handler: LinkHandler, by policy: InvitationPolicy) {
        switch policy {
        case .acceptAll:
            apply(.accept, to: invitation, on: handler)
        case .custom(let rule):
            apply(rule(invitation), to: invitation, on: handler)
        case .ask(let ask):
            Task { [self] in
                apply(await ask(invitation), to: invitation, on: handler)
            }
        }
    }

    func apply(_ decision: InvitationDecision, to invitation: Invitation, on handler: LinkHandler) {
        let effects = state.withLock { state in
            var effects = SessionEffects()
            let id = handler.id
            guard let record = state.links[id], case .deciding(let pending) = record.phase, pending.peer == invitation.peer,
                  record.challenge == nil, !record.isAccepted
            else {
                return effects  // the inviter left or the invitation expired meanwhile
            }
            if case .accept = decision, !state.isClosed {
                // The ACCEPT goes out before the peer is connected: nothing this session sends to
                // a connected peer (from any thread) may reach the inviter before it. The link
                // stays in its handshake, unread, until the ACCEPT has been handed over.
                let nonce = VerificationCode.nonce()
                state.links[id]?.awaitedReveal = (pending.codeCommitment, nonce)
                state.links[id]?.isAccepted = true
                effects.pauseReading(record.connection)
                effects.send(.accept(.init(peer: localPeer, codeNonce: nonce, features: configuration.features)), on: record.connection)
                return effects
            }
            let network = state.handshaking[id]
            _ = state.removeLink(id)
            switch decision {
            case .challenge(let challenge) where !state.isClosed:
                // Accepted on condition: the link stays in its handshake until the answer checks.
                let nonce = VerificationCode.nonce()
                effects.send(
                    .accept(.init(peer: localPeer, codeNonce: nonce, features: configuration.features, challenge: challenge.bytes)), on: record.connection)
                var record = record
                record.awaitedReveal = (pending.codeCommitment, nonce)
                record.challenge = challenge
                record.lastSent = clock.now
                state.insertLink(id, record)
                state.handshaking[id] = network ?? RemoteAddress.limitGroup(of: record.connection.remoteAddress)
                state.pendingLinks[invitation.peer] = id
            case .accept, .challenge:  // the session is leaving (an accept otherwise went out above)
                effects.close(record.connection, after: .decline(.init(cause: .refused, reason: "the host is leaving")))
                effects.post(invitation.peer, .notConnected, .invitationEnded)
            case .decline(let reason):
                effects.close(record.connection, after: .decline(.init(cause: .refused, reason: reason)))
                if state.connectedLinks[invitation.peer] == nil { effects.post(invitation.peer, .notConnected, .invitationEnded) }
            }
            return effects
        }
        effects.perform(on: self)
        if case .accept = decision { connectAccepted(on: handler) }
    }

    /// Connects the peer whose ACCEPT has just been handed to its connection, and reads from it
    /// again.
    private func connectAccepted(on handler: LinkHandler) {
        let (effects, connection) = state.withLock { state -> (SessionEffects, (any Connection)?) in
            var effects = SessionEffects()
            let id = handler.id
            guard !state.isClosed, let record = state.links[id], case .deciding(let invitation) = record.phase, record.isAccepted else {
                return (effects, nil)  // the link closed meanwhile, or the session did
            }
            _ = state.removeLink(id)
            var connected = record
            connected.isAccepted = false
            connect(invitation.peer, via: id, record: connected, announce: false, state: &state, effects: &effects)
            state.links[id]?.lastSent = clock.now
            // The decision may come from another thread than the link's (an `ask` policy):
            // hold the peer's first messages until `connected` has been posted.
            state.links[id]?.heldData = []
            return (effects, record.connection)
        }
        effects.perform(on: self)
        connection?.resumeReading()
        releaseHeldData(of: handler.id)
    }

    /// The most heartbeats a peer may send in a second: it sends one after each quiet heartbeat
    /// interval (1 s by default), so this is never reached by a peer that keeps the protocol.
    static var heartbeatsPerSecond: Int { 20 }

    /// Posts the data held back while `connected` was being posted, in arrival order, and stops
    /// holding once nothing is left (data arriving meanwhile joins the queue, so order is kept).
    func releaseHeldData(of id: ObjectIdentifier) {
        while true {
            let batch: [HeldPost] = state.withLock { state in
                guard let held = state.links[id]?.heldData else { return [] }
                if held.isEmpty {
                    state.links[id]?.heldData = nil
                    return []
                }
                state.links[id]?.heldData = []
                return held
            }
            if batch.isEmpty { return }
            for post in batch {
                switch post {
                case .data(let data): events.post(.dataReceived, data)
                case .stream(let stream): events.post(.streamOpened, stream)
                case .resource(let arrival): receiveOffer(arrival)
                }
            }
        }
    }
}

extension Frame {
    /// The frame's kind, for messages.
    var kindName: String {
        switch self {
        case .hello: "hello"
        case .accept: "accept"
        case .decline: "decline"
        case .data: "data"
        case .heartbeat: "heartbeat"
        case .goodbye: "goodbye"
        case .reveal: "reveal"
        case .streamOpen: "stream open"
        case .streamData: "stream data"
        case .streamWindow: "stream window"
        case .streamClose: "stream close"
        case .resourceOffer: "resource offer"
        case .resourceAnswer: "resource answer"
        case .resourceResult: "resource result"
        case .resourceHeld: "resource held"
        case .resume: "resume"
        case .acknowledge: "acknowledge"
        }
    }

    /// Whether the frame belongs to a byte stream.
    var isStreamFrame: Bool {
        switch self {
        case .streamOpen, .streamData, .streamWindow, .streamClose, .resourceOffer, .resourceAnswer, .resourceResult, .resourceHeld: true
        default: false
        }
    }
}
