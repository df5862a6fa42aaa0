import Foundation
import Multipeer

extension Session {
    /// Sends `message` to `host`, the host of the room this session's guest is in (nil: not in
    /// one yet), with the room's errors: the host gone, or the send failed.
    /// - Throws: ``GameError/Code/notJoined``, ``GameError/hostGone(_:)``, ``GameError/Code/sendFailed``.
    package func send<Message: GameMessage>(_ message: Message, toRoomHost host: PeerID?) throws(GameError) {
        let payload: Data
        do { payload = try JSONEncoder().encode(message) } catch { throw .sendFailed(.messageEncodingFailed(Message.messageType, error)) }
        try send(payload, messageType: Message.messageType, toRoomHost: host)
    }

    /// Sends `payload`, a `messageType` message, to `host` (see ``send(_:toRoomHost:)``).
    package func send(_ payload: Data, messageType: String, toRoomHost host: PeerID?) throws(GameError) {
        guard let host else { throw .notJoined }
        do { try send(payload, messageType: messageType, to: host) } catch {
            if error.code == .peerNotConnected || error.code == .sessionClosed { throw .hostGone(host) }
            throw .sendFailed(error)
        }
    }
}
