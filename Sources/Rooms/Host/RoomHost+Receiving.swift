import EventBus
import Foundation
import Logging
import Multipeer

/// What a room host does with the messages its players send: a move played and answered at
/// once (the guess's path, inlined into the game's module), chat relayed, renames, sync
/// requests, and every message charged to its sender's budget first.
extension RoomHost {
    /// The guess's path, inlined into the module that hosts a game (``start()`` makes the
    /// observer there, where the game's type is known): a move decoded, charged to its sender's
    /// budget and played under one lock, and answered. Run unspecialized in this module, the
    /// generic room paid for metadata look-ups at nearly every step of a move. Anything else,
    /// and a move not played (over budget, no seat yet), goes on to ``received(_:at:charged:)``.
    @inlinable
    func receive(_ data: ReceivedData) {
        let now = session.clock.now
        guard data.messageType == Rules.Codec.moveType, let move = try? Rules.Codec.decodeMove(from: data.payload) else {
            return received(data, at: now, charged: nil)
        }
        var decision: MessageBudget.Decision?
        let played = state.withLock { state -> RoomTable<Rules>.MoveResult? in
            guard state.phase == .running, let charged = state.table.seats.charge(data.peer.identity, at: now) else { return nil }
            decision = charged
            guard charged == .allowed else { return nil }
            let result = state.table.move(move, from: data.peer.identity, at: now)
            if case .played = result { state.gameChanged = true }
            return result
        }
        if let played { return answer(played, to: data.peer) }
        received(data, at: now, charged: decision)
    }

    /// A message from `data`'s peer, already charged to its budget with `charged` (nil: not yet).
    @usableFromInline
    func received(_ data: ReceivedData, at now: ContinuousClock.Instant, charged: MessageBudget.Decision?) {
        let peer = data.peer
        let charge = { self.state.withLock { $0.phase == .running ? $0.table.seats.charge(peer.identity, at: now) : nil } }
        var decision = charged ?? charge()
        if decision == nil, session.state(of: peer) == .connected {
            join(peer)  // its data overtook its state change
            decision = charge()
        }
        switch decision {
        case .allowed?: break
        case .cutOff?:
            let error = GameError.messageFlood(perSecond: configuration.messagesPerSecond)
            refused(.cutOff, from: peer, error: error)
            session.disconnect(peer, reason: error.message)
            return
        case .refused?:
            refused(.overBudget, from: peer)
            return
        case nil: return
        }
        switch data.messageType {
        case Rules.Codec.moveType:
            let move: Rules.Move
            do { move = try Rules.Codec.decodeMove(from: data.payload) } catch {
                return refused(.undecodable, from: peer, metadata: ["type": .string(Rules.Codec.moveType), "error": "\(error)"])
            }
            let result = state.withLock { state -> RoomTable<Rules>.MoveResult in
                let result = state.table.move(move, from: peer.identity, at: now)
                if case .played = result { state.gameChanged = true }
                return result
            }
            answer(result, to: peer)
        case ChatMessage.messageType:
            guard data.payload.count <= RoomProtocol.maximumChatPayloadBytes else {
                let error = GameError.chatTooManyBytes(data.payload.count, limit: RoomProtocol.maximumChatBytes)
                refused(.chatTooLong, from: peer, error: error)
                return send(GameErrorMessage(error), to: peer)
            }
            guard let message = decode(ChatMessage.self, data) else { return }
            if case .refused(let error) = state.withLock({ $0.table.chat(message.text, from: peer.identity, at: now) }) {
                refused(Refusal(error), from: peer, error: error)
                if let error { send(GameErrorMessage(error), to: peer) }
            }
        case RenameRequest.messageType:
            guard let message = decode(RenameRequest.self, data) else { return }
            if case .refused(let error) = state.withLock({ $0.table.rename(peer.identity, to: message.name, at: now) }) {
                refused(Refusal(error), from: peer, error: error)
                if let error { send(GameErrorMessage(error), to: peer) }
            }
        case SyncRequest.messageType:
            guard let message = decode(SyncRequest.self, data) else { return }
            _ = state.withLock { $0.table.seats.requestWelcome(for: peer.identity, at: now, after: message.after) }
        default:
            refused(.unknownType, from: peer, metadata: ["type": .string(data.messageType ?? "raw bytes")])
        }
    }

    /// Tells the mover what came of its move (played under the lock already).
    @inlinable
    func answer(_ result: RoomTable<Rules>.MoveResult, to peer: PeerID) {
        switch result {
        case .played(let event, let sequence, let ended):
            if let event { send(.reply(event, sequence: sequence), to: peer) }
            if ended != nil { scheduleNextRound() }
        case .refused(let refusal): send(.refused(refusal), to: peer)
        case .throttled(let error):
            refused(.throttled, from: peer, error: error)
            if let error { send(GameErrorMessage(error), to: peer) }
        case .notSeated: break
        }
    }

    func decode<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            refused(.undecodable, from: data.peer, metadata: ["type": .string(Message.messageType), "error": .string(error.message)])
            return nil
        }
    }

    /// Logs at `.notice` that `peer` was refused for `refusal`, the first time only.
    @usableFromInline
    func refused(_ refusal: Refusal, from peer: PeerID, error: GameError? = nil, metadata extra: Logger.Metadata = [:]) {
        guard state.withLock({ $0.table.seats.recordRefusal(refusal, by: peer.identity) }) else { return }
        logger.refusal(refusal, from: peer, error: error, metadata: extra)
    }
}
