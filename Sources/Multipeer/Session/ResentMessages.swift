import Foundation

/// A `messagesResent` post: messages this side sent to ``peer`` just before their link
/// dropped, which the peer had not received and which went out again, oldest first, when it
/// connected again. A program can tell its user which of what they did was sent again.
public struct ResentMessages: Sendable, Hashable {
    /// The peer they went to.
    public let peer: PeerID
    /// The messages, oldest first, each as its recipient receives it (its ``ReceivedData/peer``
    /// is this side's local peer, their sender).
    public let messages: [ReceivedData]

    public init(peer: PeerID, messages: [ReceivedData]) {
        self.peer = peer
        self.messages = messages
    }

    /// The messages of encoded DATA `frames`, sent by `sender` to `peer`.
    init(peer: PeerID, frames: [EncodedFrame], sender: PeerID) {
        let messages = frames.compactMap { frame -> ReceivedData? in
            guard case .data(let type, let payload)? = try? FrameCodec.decode(frame.bytes.dropFirst(WireProtocol.lengthPrefixBytes)) else { return nil }
            return ReceivedData(peer: sender, messageType: type, payload: payload)
        }
        self.init(peer: peer, messages: messages)
    }
}
