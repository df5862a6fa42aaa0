import Foundation
import Logging

/// How a link becomes connected: the advertiser reading an inviter's HELLO, and a peer made
/// connected (with its RESUME, where both sides speak message resume).
extension Session {
    /// The inviter's HELLO on an accepted link: turned away (another version, an identity its key
    /// does not prove, itself, one already joining), or handed to the invitation policy.
    func receiveHello(
        _ hello: Frame.Hello, on handler: LinkHandler, connection: any Connection, now: ContinuousClock.Instant,
        state: inout SessionState, effects: inout SessionEffects
    ) {
        let id = handler.id
        func turnAway(_ cause: Frame.Decline.Cause, _ reason: String) {
            _ = state.removeLink(id)
            effects.close(connection, after: .decline(.init(cause: cause, reason: reason)))
        }
        guard hello.version == WireProtocol.version else {
            turnAway(.unsupportedVersion, "this host speaks protocol version \(WireProtocol.version), not \(hello.version)")
            effects.diagnose("Inviter speaks another protocol version.", connection.remoteDescription, .unsupportedProtocolVersion(hello.version))
            return
        }
        let peer = hello.peer
        if !proves(peer, on: connection) {
            let error = MultipeerError.identityNotProved(peer.displayName)
            effects.diagnose("Inviter claims an identity its key does not prove.", connection.remoteDescription, error)
            return turnAway(.refused, error.message)
        }
        if peer == localPeer { return turnAway(.refused, "a peer cannot join itself") }
        if state.pendingLinks[peer] != nil { return turnAway(.refused, "\(peer.displayName) is already joining") }
        let requested = Duration.milliseconds(Int64(hello.invitationTimeoutMilliseconds))
        let invitation = Invitation(
            peer: peer, context: hello.context, remoteDescription: connection.remoteDescription,
            expires: now + min(requested, configuration.maximumInvitationTimeout), codeCommitment: hello.codeCommitment,
            isIdentityProven: connection.provenPeer?.identity == peer.identity, clock: clock)
        state.links[id]?.phase = .deciding(invitation)
        state.links[id]?.streams.peerFeatures = hello.features
        state.links[id]?.streams.localFeatures = configuration.features
        state.pendingLinks[peer] = id
        if state.connectedLinks[peer] == nil { effects.post(peer, .connecting) }
        effects.decide(handler, invitation, state.policy)
    }

    /// Makes `peer` connected through link `id`. A peer already connected through another link
    /// (it reconnected before its old link was found dead) moves to the new one quietly.
    func connect(
        _ peer: PeerID, via id: ObjectIdentifier, record: LinkRecord, announce: Bool,
        state: inout SessionState, effects: inout SessionEffects
    ) {
        var record = record
        let localIsInviter = if case .inviting = record.phase { true } else { false }
        record.streams.start(localIsInviter: localIsInviter, peerFeatures: record.streams.peerFeatures)
        record.phase = .connected(peer)
        if record.streams.peerFeatures & record.streams.localFeatures & WireProtocol.Feature.resume != 0 {
            // The RESUME goes out first on the link (after the inviter's REVEAL, queued before).
            let told = state.ledgers[peer, default: MessageLedger()].openLink(incarnation: incarnation)
            record.resume = .awaitingPeer(told: told, linkStart: state.ledgers[peer]?.sent ?? 0)
            effects.send(.resume(told), on: record.connection)
        }
        // Silence counts from here: a decision may have taken longer than the peer timeout.
        record.lastHeard = clock.now
        state.handshaking[id] = nil
        if let oldID = state.connectedLinks[peer], let old = state.removeLink(oldID) {
            effects.log(.notice, "Peer connected again; its older link was replaced.", .about(peer: peer.displayName).merging(["address": .string(old.connection.remoteDescription)]) { $1 })
            effects.close(old.connection, after: .goodbye(reason: "replaced by a newer connection"))
        } else {
            if announce { effects.post(peer, .connecting) }
            effects.post(peer, .connected)
        }
        state.insertLink(id, record)
        state.connectedLinks[peer] = id
    }
}
