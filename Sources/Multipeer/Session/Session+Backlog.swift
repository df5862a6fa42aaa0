import Foundation
import Logging

/// Peers that stop reading: a connection reports when more than the high water mark waits for
/// its peer; the session stops counting on that peer for broadcasts (see
/// ``Session/sendToAll(_:messageType:skippingBacklogged:excluding:)``), posts ``EventName/backlogChanged``,
/// and disconnects a peer backlogged for longer than ``SessionConfiguration/backlogTimeout``.
extension Session {
    /// The goodbye reason a peer hears when it is disconnected for not reading.
    public static let notReadingReason = "not reading"

    /// Whether more than ``SessionConfiguration/backlogHighWaterMark`` bytes wait for `peer`
    /// (and it has not drained below the low water mark since). False for a peer not connected.
    public func isBacklogged(_ peer: PeerID) -> Bool {
        state.withLock { state in
            guard let id = state.connectedLinks[peer] else { return false }
            return state.links[id]?.backloggedSince != nil
        }
    }

    func link(_ handler: LinkHandler, writable: Bool) {
        let now = clock.now
        let (effects, writers) = state.withLock { state -> (SessionEffects, [OutgoingStreamCore]) in
            var effects = SessionEffects()
            guard let record = state.links[handler.id], (record.backloggedSince == nil) != writable else { return (effects, []) }
            state.links[handler.id]?.backloggedSince = writable ? nil : now
            if case .connected(let peer) = record.phase {
                effects.post(PeerBacklogChange(peer: peer, isBacklogged: !writable))
            }
            // Stream writers wait while the link is backlogged; they go on once it drained.
            return (effects, writable ? state.links[handler.id]?.streams.writersWithPendingBytes() ?? [] : [])
        }
        effects.perform(on: self)
        for writer in writers { pumpStream(writer, link: handler.id) }
    }

    /// Whether the link's peer has been backlogged for longer than the configuration allows.
    func isOverdue(_ record: LinkRecord, now: ContinuousClock.Instant) -> Bool {
        guard let since = record.backloggedSince else { return false }
        return now - since > configuration.backlogTimeout
    }

    /// Disconnects the connected peer of `record`, whose link the caller removed, for not reading.
    func dropNotReading(_ record: LinkRecord, peer: PeerID, effects: inout SessionEffects) {
        let error = MultipeerError.peerNotReading(peer.displayName, after: configuration.backlogTimeout)
        effects.log(
            .notice, "Peer stopped reading; disconnected.",
            Logger.Metadata.about(peer: peer.displayName, error).merging(["address": .string(record.connection.remoteDescription), "reason": .string(Self.notReadingReason)]) { $1 })
        effects.close(record.connection, after: .goodbye(reason: Self.notReadingReason))
        effects.post(peer, .notConnected, .lost(error))
    }
}
