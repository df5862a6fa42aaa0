import Logging
import Multipeer

extension Logger {
    /// Decodes `data` as `Message`; when it is not one, logs so at `.notice` and returns nil, so
    /// that a bad message is logged and ignored, never fatal.
    func decodeGameMessage<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            var metadata = Logger.Metadata.game(peer: data.peer.displayName, code: error.code.rawValue)
            metadata["type"] = .string(Message.messageType)
            metadata["error"] = .string(error.message)
            notice("Peer sent a message that could not be decoded; it was ignored.", metadata: metadata)
            return nil
        }
    }

    /// Logs at `.notice` that `data` is of a type this side does not take.
    func unknownGameMessage(_ data: ReceivedData) {
        var metadata = Logger.Metadata.game(peer: data.peer.displayName)
        metadata["type"] = .string(data.messageType ?? "raw bytes")
        notice("Peer sent a message of an unknown type; it was ignored.", metadata: metadata)
    }
}
