/// The messages a session exchanged with one peer, counted, so that when their link drops and
/// the same two sessions connect again each sends again exactly what the other did not get:
/// nothing lost, nothing twice (`docs/PROTOCOL.md` §5.5).
///
/// Numbers are implicit: the n-th DATA frame sent to the peer in a pairing is message n (from
/// 0), and each side counts the DATA frames it received. A message is kept until the peer
/// acknowledges it (ACKNOWLEDGE, or the count in its RESUME), within
/// ``SessionConfiguration/maximumRetainedMessages`` and ``SessionConfiguration/maximumRetainedBytes``;
/// past them the ledger gives up keeping, and the next link starts a fresh pairing.
struct MessageLedger {
    /// The other session's incarnation that the counts belong to; nil before the first link
    /// synced, or once this side gave up on the pairing.
    private(set) var peerIncarnation: UInt64?
    /// How many messages were sent to the peer in this pairing: the next one's number.
    private(set) var sent: UInt64 = 0
    /// How many of the peer's messages arrived in this pairing.
    private(set) var received: UInt64 = 0
    /// The count this side last acknowledged to the peer.
    private(set) var acknowledged: UInt64 = 0
    /// Sent and not yet acknowledged, oldest first, from ``retainedStart`` on: message
    /// `firstRetained + i` is `retained[retainedStart + i]`.
    private var retained: [EncodedFrame] = []
    private var retainedStart = 0
    /// The number of the oldest message kept.
    private(set) var firstRetained: UInt64 = 0
    /// The bytes of the messages kept.
    private(set) var retainedBytes = 0
    /// Whether the ledger gave up keeping (more was unacknowledged than it may keep): it still
    /// counts, but the pairing cannot be resumed.
    private(set) var gaveUp = false
    /// Messages to hand to the peer's link, in order (only once the link has synced).
    var unwritten: [EncodedFrame] = []
    /// Whether a thread is handing this peer's messages to its link (see
    /// ``SessionState/takeUnwritten(for:)``): the others only queue theirs behind.
    var isWriting = false
    /// Since when the peer has been away, while it is.
    var awaySince: ContinuousClock.Instant?

    /// A fresh ledger; `isWriting` carries over when one is forgotten while a thread writes
    /// for it, so that the thread's claim stays the only one.
    init(isWriting: Bool = false) {
        self.isWriting = isWriting
    }

    /// Forgets the pairing (the peer said goodbye, or was disconnected here): a later link
    /// starts a fresh one.
    mutating func forget() {
        self = MessageLedger(isWriting: isWriting)
    }

    /// How many messages are kept.
    var retainedCount: Int { retained.count - retainedStart }

    /// How many frames the ledger holds, acknowledged ones not yet let go included.
    var heldFrames: Int { retained.count }

    /// How a link's sync came out.
    enum Sync: Equatable {
        /// The pairing goes on: `resent` were sent on an earlier link and are sent again.
        case resumed(resent: [EncodedFrame])
        /// A fresh pairing: `lost` messages, sent on earlier links, were never acknowledged and
        /// go no further.
        case fresh(lost: Int)
        /// The other side broke the protocol.
        case violation(String)
    }

    /// What this side says in its RESUME on a new link, as the session `incarnation`. A ledger
    /// that gave up starts over first (what it keeps from now on is the new link's).
    mutating func openLink(incarnation: UInt64) -> Frame.Resume {
        if gaveUp {
            gaveUp = false
            peerIncarnation = nil
            firstRetained = sent
        }
        unwritten = []
        awaySince = nil
        return Frame.Resume(incarnation: incarnation, knownIncarnation: peerIncarnation ?? 0, received: received)
    }

    /// Numbers `frame` as the next message, kept until acknowledged, and `queued` behind the
    /// frames waiting to be handed to the link (when another thread writes for it). False when
    /// it passed the limits: the ledger then gives up keeping (and the caller decides what that
    /// means for a link that has not synced).
    mutating func append(_ frame: EncodedFrame, queued: Bool, limits: (messages: Int, bytes: Int)) -> Bool {
        sent += 1
        if queued { unwritten.append(frame) }
        if gaveUp { return true }
        retained.append(frame)
        retainedBytes += frame.bytes.count
        guard retainedCount > limits.messages || retainedBytes > limits.bytes else { return true }
        giveUp()
        return false
    }

    /// What became of a message handed to ``send(_:synced:limits:)``.
    struct Handoff {
        /// False when keeping it passed the limits (the ledger gave up keeping).
        var kept: Bool
        /// What the caller hands to the link now, holding the claim to write for the peer; nil
        /// when another thread writes (the message waits in its queue) or the link has not synced.
        var toWrite: Writes?
    }

    /// What a caller that claimed the writing hands to the link.
    enum Writes {
        /// The message alone: nothing was queued (nearly always; no array is made for it).
        case message
        /// What was queued, then the message, in order.
        case queuedThenMessage([EncodedFrame])
    }

    /// Numbers and keeps `frame` (``append(_:queued:limits:)``), and decides who hands it to a
    /// link that has `synced`: the caller, claiming the writing, when nobody writes; else it
    /// waits behind the thread that does.
    mutating func send(_ frame: EncodedFrame, synced: Bool, limits: (messages: Int, bytes: Int)) -> Handoff {
        let claims = synced && !isWriting
        let kept = append(frame, queued: synced && !claims, limits: limits)
        guard claims else { return Handoff(kept: kept, toWrite: nil) }
        isWriting = true
        // Nothing waits while nobody writes (a writer empties the queue before it lets go).
        guard !unwritten.isEmpty else { return Handoff(kept: kept, toWrite: .message) }
        defer { unwritten = [] }
        return Handoff(kept: kept, toWrite: .queuedThenMessage(unwritten + [frame]))
    }

    /// Claims the writing for the caller when nobody writes and frames wait (queued before the
    /// link synced): those frames, in order; nil otherwise.
    mutating func claimQueued() -> [EncodedFrame]? {
        guard !isWriting, !unwritten.isEmpty else { return nil }
        isWriting = true
        defer { unwritten = [] }
        return unwritten
    }

    /// For the thread holding the claim: true (and the claim let go) when nothing was queued
    /// meanwhile; false when frames wait, the claim still held.
    mutating func letGoIfNothingQueued() -> Bool {
        guard unwritten.isEmpty else { return false }
        isWriting = false
        return true
    }

    /// For the thread holding the claim: the frames queued meanwhile, in order; nil (and the
    /// claim let go) when none are.
    mutating func takeQueued() -> [EncodedFrame]? {
        guard !unwritten.isEmpty else {
            isWriting = false
            return nil
        }
        defer { unwritten = [] }
        return unwritten
    }

    /// Forgets every message kept: the pairing can no longer resume.
    private mutating func giveUp() {
        gaveUp = true
        retained = []
        retainedStart = 0
        retainedBytes = 0
        firstRetained = sent
    }

    /// The peer has `count` of this side's messages: those need no keeping. False when it
    /// claims more than was sent, or fewer than it acknowledged before.
    mutating func acknowledge(_ count: UInt64) -> Bool {
        guard count <= sent else { return false }
        if gaveUp { return true }
        guard count >= firstRetained else { return false }
        let drop = Int(count - firstRetained)
        for index in retainedStart..<(retainedStart + drop) { retainedBytes -= retained[index].bytes.count }
        retainedStart += drop
        firstRetained = count
        if retainedStart == retained.count {
            // All acknowledged: let the frames go now (a host would otherwise hold each player's
            // welcome until 64 more messages were acknowledged).
            retained = []
            retainedStart = 0
        } else if retainedStart > 64, retainedStart * 2 > retained.count {
            retained.removeFirst(retainedStart)
            retainedStart = 0
        }
        return true
    }

    /// A message arrived from the peer. Returns the count to acknowledge when `every` messages
    /// went unacknowledged, or at once when the message was `large` (the peer keeps it until then).
    mutating func receive(acknowledgingEvery every: UInt64, large: Bool = false) -> UInt64? {
        received += 1
        guard received - acknowledged >= every || large else { return nil }
        acknowledged = received
        return received
    }

    /// The count to acknowledge now, if any message went unacknowledged.
    mutating func acknowledgement() -> UInt64? {
        guard received > acknowledged else { return nil }
        acknowledged = received
        return received
    }

    /// Syncs with the peer's RESUME on a link where this side said `told` (its
    /// ``openLink(incarnation:)``) and had sent `linkStart` messages when it opened, as the
    /// session `incarnation`. Both sides reach the same verdict: the pairing goes on when each
    /// named the other's incarnation. Everything kept and not acknowledged is then queued for
    /// the link, in order.
    mutating func sync(with peer: Frame.Resume, told: Frame.Resume, linkStart: UInt64, incarnation: UInt64) -> Sync {
        let goesOn = told.knownIncarnation != 0 && told.knownIncarnation == peer.incarnation && peer.knownIncarnation == incarnation
        if goesOn {
            guard peer.received <= sent, peer.received >= firstRetained else {
                return .violation("a resume that counts \(peer.received) messages received, where \(firstRetained) to \(sent) are possible")
            }
            _ = acknowledge(peer.received)
            let written = Int(linkStart > firstRetained ? linkStart - firstRetained : 0)
            let kept = Array(retained[retainedStart...])
            unwritten = kept
            return .resumed(resent: Array(kept.prefix(written)))
        }
        let earlier = Int(linkStart > firstRetained ? linkStart - firstRetained : 0)
        let kept = Array(retained[(retainedStart + min(earlier, retainedCount))...])
        let lost = gaveUp ? 0 : min(earlier, retainedCount)
        peerIncarnation = peer.incarnation
        retained = kept
        retainedStart = 0
        retainedBytes = kept.reduce(0) { $0 + $1.bytes.count }
        firstRetained = 0
        sent = UInt64(kept.count)
        received = 0
        acknowledged = 0
        gaveUp = false
        unwritten = kept
        return .fresh(lost: lost)
    }
}
