import EventBus
import Foundation
import Logging
import Multipeer

/// What a room host sends each tick, and how: replays, welcomes, the batch and the players'
/// views, split into frames that fit.
extension RoomHost {
    // MARK: Sending

    /// Sends what the last tick gathered: replays, welcomes, the batch, then the players' views;
    /// returns how long the next tick waits: ``RoomConfiguration/broadcastTick``, or longer when
    /// this one sent more frames than ``RoomConfiguration/broadcastFramesPerSecond`` allows.
    func flush() -> Duration {
        let now = session.clock.now
        let deadline = now - configuration.awayGracePeriod
        let taken = state.withLock { state -> (RoomTable<Rules>.Flush, [Rules.View: [PeerID]], UInt64, Set<UUID>, Bool)? in
            guard state.phase == .running else { return nil }
            let sequence = state.table.lastSequence
            // A game decided for a player out of time ends nothing else in the same tick.
            let timedOut = state.table.timeTurns(at: now) != nil
            if state.table.lastSequence != sequence { state.gameChanged = true }
            let ended = state.table.expireAway(before: deadline, at: now) != nil || timedOut
            let flush = state.table.takeFlush()
            // Handed over under the lock, so that a store receives the ticks in order.
            if let observer, !flush.everything.isEmpty { observer.keep(flush.everything, of: state.table) }
            var views: [Rules.View: [PeerID]] = [:]
            let away = state.table.seats.away
            if state.gameChanged, Rules.Codec.sendsViews {
                let welcomed = Set(flush.welcomes.map(\.peer.identity))
                for member in state.table.seats.roster.members.values
                where away[member.player.id] == nil && !welcomed.contains(member.player.id) {
                    views[state.table.rules.view(for: member.player), default: []].append(member.peer)
                }
            }
            state.gameChanged = false
            return (flush, views, state.table.lastSequence, away.isEmpty ? [] : Set(away.keys), ended)
        }
        guard let (flush, views, sequence, away, ended) = taken else { return configuration.broadcastTick }
        if ended { scheduleNextRound() }
        var frames = 0
        for (peer, after, items) in flush.replays { frames += replay(items, after: after, to: peer) }
        if !flush.welcomes.isEmpty {
            do {
                let encoded = try Rules.Codec.encode(welcomes: flush.welcomes.map(\.welcome), within: payloadLimit(for: Rules.Codec.welcomeType))
                for ((peer, _), (type, payload)) in zip(flush.welcomes, encoded) { frames += send(payload, type, to: [peer]) }
            } catch {
                logger.warning("Could not encode the welcomes.", metadata: ["error": "\(error)"])
            }
        }
        // The host's screen is told every item when the room keeps them all (an observer's room),
        // those the broadcast only counted included; otherwise what the broadcast lists.
        for item in observer == nil ? flush.batch?.items ?? [] : flush.everything { activityContinuation.yield(.item(item)) }
        if let batch = flush.batch {
            for payload in payloads(of: batch) {
                do {
                    frames += try session.sendToAll(payload, messageType: Rules.Codec.batchType, skippingBacklogged: true, excluding: away)
                } catch {
                    logger.warning("Could not send a broadcast.", metadata: ["error": "\(error)"])
                }
            }
        }
        // Players who see the game alike (the watchers, say) share one encoding and one send.
        for (view, peers) in views {
            do {
                let (type, payload) = try Rules.Codec.encode(.view(RoomViewUpdate(lastSequence: sequence, view: view)))
                frames += send(payload, type, to: peers)
            } catch {
                logger.warning("Could not encode a view.", metadata: ["error": "\(error)"])
            }
        }
        let refusals = privacy?.due(at: now) ?? []
        if let observer, !flush.everything.isEmpty || !refusals.isEmpty { observer.report(flush.everything, passwordRefusals: refusals) }
        // (Nothing, when an observer shows what happened: the stream has ended.)
        for refusal in refusals { activityContinuation.yield(.passwordRefusals(refusal)) }
        return configuration.broadcastInterval(frames: frames)
    }

    /// Sends `peer` the `items` after `after` that it missed: as batches, or as the game's
    /// replay message, which a welcome in the next tick replaces when it does not fit a frame.
    /// Returns how many frames that was.
    func replay(_ items: [RoomItem<Rules>], after: UInt64, to peer: PeerID) -> Int {
        if Rules.Codec.replaysAsBatches {
            return payloads(of: RoomBatch(items: items)).reduce(0) { $0 + send($1, Rules.Codec.batchType, to: [peer]) }
        }
        do {
            let (type, payload) = try Rules.Codec.encode(.replay(after: after, items: items))
            guard payload.count <= payloadLimit(for: type) else {
                state.withLock { $0.table.seats.welcomeAgain(peer.identity) }
                return 0
            }
            return send(payload, type, to: [peer])
        } catch {
            logger.warning("Could not encode a replay.", metadata: .game(peer: peer.displayName).merging(["error": "\(error)"]) { $1 })
            return 0
        }
    }

    /// `batch` as payloads that each fit a frame, every item encoded once.
    func payloads(of batch: RoomBatch<Rules>) -> [Data] {
        var encoded: [[UInt8]] = []
        encoded.reserveCapacity(batch.items.count)
        for item in batch.items {
            do { encoded.append(try Rules.Codec.encode(item: item)) } catch {
                logger.warning("Could not encode a broadcast item.", metadata: ["error": "\(error)"])
            }
        }
        return BatchPayloads.split(encoded, payloadLimit: payloadLimit(for: Rules.Codec.batchType)) { first in
            Rules.Codec.batchClosing(of: batch, first: first)
        }
    }

    /// The most payload bytes a message of `type` may carry in one frame (the codec's rule).
    func payloadLimit(for type: String) -> Int {
        FrameCodec.maximumPayloadLength(messageType: type, maximumFrameLength: session.configuration.maximumFrameLength)
    }

    /// Sends `payload` as a `type` message to `peers`; how many frames that was. When one of
    /// several peers left meanwhile (the session then sends nothing), each of the others is sent
    /// it alone.
    @usableFromInline
    func send(_ payload: Data, _ type: String, to peers: [PeerID]) -> Int {
        if peers.count == 1 { return send(payload, type, to: peers[0]) ? 1 : 0 }
        do {
            try session.send(payload, messageType: type, to: peers)
            return peers.count
        } catch {
            guard peers.count > 1, error.code == .peerNotConnected else {
                report(error, sending: type)
                return 0
            }
            return peers.reduce(0) { sent, peer in sent + send(payload, type, to: [peer]) }
        }
    }

    /// Sends `payload`, a `type` message, to `peer`; whether it was handed to the session.
    @usableFromInline
    func send(_ payload: Data, _ type: String, to peer: PeerID) -> Bool {
        do {
            try session.send(payload, messageType: type, to: peer)
            return true
        } catch {
            report(error, sending: type)
            return false
        }
    }

    /// Sends `message` to `peer`; a peer that left meanwhile, or a closed session, is not worth a report.
    @usableFromInline
    func send<Message: GameMessage>(_ message: Message, to peer: PeerID) {
        do { try session.send(message, to: [peer]) } catch { report(error, sending: Message.messageType) }
    }

    /// Sends the game's `message` to `peer`, as its codec writes it.
    @inlinable
    func send(_ message: RoomHostMessage<Rules>, to peer: PeerID) {
        do {
            let (type, payload) = try Rules.Codec.encode(message)
            _ = send(payload, type, to: peer)
        } catch {
            logger.warning("Could not encode a message.", metadata: .game(peer: peer.displayName).merging(["error": "\(error)"]) { $1 })
        }
    }

    /// Logs a failed send of a `type` message; a peer that left meanwhile, or a closed session, is not worth a report.
    func report(_ error: MultipeerError, sending type: String) {
        switch error.code {
        case .peerNotConnected, .sessionClosed: break
        default: logger.warning("A send failed.", metadata: ["type": .string(type), "code": .string(error.code.rawValue), "error": .string(error.message)])
        }
    }
}
