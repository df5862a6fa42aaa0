import Foundation
import Synchronization

/// A resource sender's signals: the receiver's answers, and what its task waits for.
enum SenderSignal: Sendable {
    case answer(Frame.ResourceVerdict, offset: UInt64, reason: String?)
    case result(Frame.ResourceOutcome, reason: String?)
    /// The peer is connected again.
    case connected
    /// The link to the peer closed.
    case disconnected
    /// The time to wait for the link to come back is up (the wait it belongs to is numbered).
    case deadline(Int)
    case cancelled
}

/// What a RESOURCE_OFFER brings to the receiving side: the offer and the stream its bytes come on.
struct ResourceArrival: Sendable {
    let peer: PeerID
    let link: ObjectIdentifier
    let offer: Frame.ResourceOffer
    let stream: IncomingStream
}

/// A session's resource transfers, by transfer id: its senders, to route the receivers'
/// answers, and the resources it receives, so an interrupted one is resumed when its sender
/// offers it again on a new link.
final class ResourceRegistry: Sendable {
    struct Key: Hashable {
        let peer: UUID
        let transfer: [UInt8]
    }

    private struct State {
        var senders: [Key: Mailbox<SenderSignal>] = [:]
        var receivers: [Key: IncomingResource] = [:]
    }

    private let state = Mutex(State())

    func addSender(_ mailbox: Mailbox<SenderSignal>, for key: Key) {
        state.withLock { $0.senders[key] = mailbox }
    }

    func removeSender(_ key: Key) {
        _ = state.withLock { $0.senders.removeValue(forKey: key) }
    }

    /// Hands the signal of a peer's frame to the sender of that transfer to that peer (a
    /// signal about another peer's transfer, or one that ended, goes nowhere).
    func signal(_ signal: SenderSignal, for key: Key) {
        state.withLock { $0.senders[key] }?.post(signal)
    }

    func addReceiver(_ resource: IncomingResource, for key: Key) {
        state.withLock { $0.receivers[key] = resource }
    }

    func removeReceiver(_ key: Key, _ resource: IncomingResource) {
        state.withLock { state in
            if state.receivers[key] === resource { state.receivers[key] = nil }
        }
    }

    func receiver(for key: Key) -> IncomingResource? {
        state.withLock { $0.receivers[key] }
    }
}
