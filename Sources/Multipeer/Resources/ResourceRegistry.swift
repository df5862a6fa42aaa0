import Foundation
import Synchronization

/// A resource sender's signals: the receiver's answers, and what its task waits for.
enum SenderSignal: Sendable {
    case answer(Frame.ResourceVerdict, offset: UInt64, reason: String?)
    case result(Frame.ResourceOutcome, reason: String?)
    /// What the receiver holds, before its accepting answer (``WireProtocol/Feature/restartResume``).
    case held(Frame.ResourceHeld)
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
    /// Whether the file's SHA-256 follows its bytes on the stream, not in the offer
    /// (``WireProtocol/Feature/digestAfterBytes``, announced by both sides).
    let digestFollows: Bool
    /// Whether what follows the bytes is the file's chunk root, not its whole SHA-256
    /// (``WireProtocol/Feature/chunkRootAfterBytes``, announced by both sides; only when the
    /// digest follows).
    var rootFollows = false
}

/// How a received transfer ended, kept a while so that a sender whose link dropped before it
/// heard the outcome is told when it offers the transfer again.
struct EndedTransfer: Sendable {
    /// Whether the file was saved.
    let saved: Bool
    /// Why not, as RESOURCE_RESULT says it.
    let reason: String?
}

/// A session's resource transfers, by transfer id: its senders, to route the receivers'
/// answers, the resources it receives, so an interrupted one is resumed when its sender
/// offers it again on a new link, and how those that ended went (``EndedTransfer``), for the
/// resume window and at most ``maximumEnded`` of them: a folder of any number of files leaves
/// a bounded trace, not a whole resource per file.
final class ResourceRegistry: Sendable {
    struct Key: Hashable {
        let peer: UUID
        let transfer: [UInt8]
    }

    /// The most ended transfers kept. A sender re-offers only the transfers it had under way
    /// when its link dropped, at most the streams a link may hold (64), so this is plenty.
    static let maximumEnded = 1024

    private struct State {
        var senders: [Key: Mailbox<SenderSignal>] = [:]
        var receivers: [Key: IncomingResource] = [:]
        var ended: [Key: EndedTransfer] = [:]
        /// The ended transfers, oldest first, with when they ended.
        var endedOrder: [(key: Key, at: ContinuousClock.Instant)] = []
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

    /// Hands `arrival`, a new transfer, to a receiver of the same file from the same peer that
    /// waits for its sender to come back (a sender that restarted has a new transfer id): that
    /// receiver goes on under `key`. False when none waits for it.
    func adopt(_ arrival: ResourceArrival, under key: Key) -> Bool {
        state.withLock { state in
            guard let (old, resource) = state.receivers.first(where: { $0.key.peer == key.peer && $0.value.isWaiting(for: arrival) }) else { return false }
            guard resource.adopt(arrival) != nil else { return false }
            state.receivers[old] = nil
            state.receivers[key] = resource
            return true
        }
    }

    func receiver(for key: Key) -> IncomingResource? {
        state.withLock { $0.receivers[key] }
    }

    /// `resource`, received under `key`, ended `now` as `ended`: the resource is let go of and
    /// its outcome kept for `window` (and while fewer than ``maximumEnded`` ended after it).
    func receiverEnded(_ key: Key, _ resource: IncomingResource, as ended: EndedTransfer, now: ContinuousClock.Instant, window: Duration) {
        state.withLock { state in
            if state.receivers[key] === resource { state.receivers[key] = nil }
            if state.ended.updateValue(ended, forKey: key) == nil { state.endedOrder.append((key, now)) }
            Self.prune(&state, now: now, window: window)
        }
    }

    /// How the transfer `key` ended, if it did within `window` of `now`.
    func endedTransfer(for key: Key, now: ContinuousClock.Instant, window: Duration) -> EndedTransfer? {
        state.withLock { state in
            Self.prune(&state, now: now, window: window)
            return state.ended[key]
        }
    }

    /// Drops the ended transfers older than `window`, and the oldest past ``maximumEnded``.
    private static func prune(_ state: inout State, now: ContinuousClock.Instant, window: Duration) {
        var drop = 0
        while drop < state.endedOrder.count,
              state.endedOrder.count - drop > maximumEnded || now - state.endedOrder[drop].at > window {
            state.ended[state.endedOrder[drop].key] = nil
            drop += 1
        }
        if drop > 0 { state.endedOrder.removeFirst(drop) }
    }

    /// How many ended transfers are kept (for tests).
    var endedCount: Int { state.withLock { $0.ended.count } }
}
