import Foundation

/// Everything a ``Session`` knows, guarded by its one lock.
struct SessionState {
    /// Every open connection, by its handler's identity.
    var links: [ObjectIdentifier: LinkRecord] = [:]
    /// Connected peers and the link each is connected through.
    var connectedLinks: [PeerID: ObjectIdentifier] = [:]
    /// The messages exchanged with each peer met on a link with message resume, kept while it
    /// is connected and for ``SessionConfiguration/messageResumeWindow`` after it went away.
    var ledgers: [PeerID: MessageLedger] = [:]
    /// Peers with an invitation under way, and its link.
    var pendingLinks: [PeerID: ObjectIdentifier] = [:]
    var listener: (any Listener)?
    var policy: InvitationPolicy = .acceptAll
    var isClosed = false
    var ticker: SessionTicker?
    /// Links this side let go of (a goodbye, a refusal, a timeout) whose connections have not
    /// reported closed yet. ``Session/disconnect(reason:)`` waits for them too, so a goodbye said
    /// to one peer just before the program ends still leaves the program.
    var closing: Set<ObjectIdentifier> = []
    /// Settled, once the session is closed, when the last of `closing` has closed.
    var drained: OneShot<Void>?
    /// Addresses whose connections were refused for too many handshakes, and when that was
    /// last logged: one log line per address a minute, however many connections it opens.
    var refusalsLogged: [String: ContinuousClock.Instant] = [:]

    /// The accepted connections in their handshake (waiting for HELLO, or deciding), each with
    /// the network it came from (its address's ``RemoteAddress/limitGroup(of:)``, worked out
    /// once when it was accepted): at most ``SessionConfiguration/maximumHandshakes``, so
    /// admission checks never walk every link nor parse an address again.
    var handshaking: [ObjectIdentifier: String] = [:]

    /// The accepted connections waiting, unread, for a handshake place (all
    /// ``SessionConfiguration/maximumHandshakes`` taken), each with its network; they are links
    /// awaiting HELLO that are not yet ``handshaking``.
    var waiting: [ObjectIdentifier: String] = [:]
    /// The order they came in, oldest first (may still name links that closed while waiting:
    /// ``admitWaiting(now:places:)`` passes over those).
    var waitingOrder: [ObjectIdentifier] = []

    /// How many accepted connections are in their handshake or waiting for a place, from
    /// `network` (an IPv6 address counts with its /64), and how many are in their handshake in all.
    func handshakes(from network: String) -> (fromNetwork: Int, total: Int) {
        (handshaking.values.count { $0 == network } + waiting.values.count { $0 == network }, handshaking.count)
    }

    /// Holds link `id` (just accepted from `network`) until a handshake place is free.
    mutating func wait(_ id: ObjectIdentifier, from network: String) {
        waiting[id] = network
        waitingOrder.append(id)
    }

    /// Moves the oldest waiting links into their handshake while fewer than `places` are in
    /// theirs, their handshake time counted from `now`; returns their connections, whose reading
    /// is to resume.
    mutating func admitWaiting(now: ContinuousClock.Instant, places: Int) -> [any Connection] {
        var admitted: [any Connection] = []
        var next = 0
        while next < waitingOrder.count, handshaking.count < places {
            let id = waitingOrder[next]
            next += 1
            guard let network = waiting.removeValue(forKey: id), var record = links[id] else { continue }
            record.phase = .awaitingHello(since: now)
            links[id] = record
            handshaking[id] = network
            admitted.append(record.connection)
        }
        waitingOrder.removeFirst(next)
        if waiting.isEmpty { waitingOrder.removeAll() }
        return admitted
    }

    /// The connection to close so that one from `network` may begin its handshake when all
    /// handshake places are taken: the oldest silent one (no HELLO yet) from the network with the
    /// most handshakes, when that network has at least two more than `network`. Nil when no
    /// network holds more than its share that way.
    func handshakeToEvict(for network: String) -> ObjectIdentifier? {
        var silent: [String: [(id: ObjectIdentifier, since: ContinuousClock.Instant)]] = [:]
        var counts: [String: Int] = [:]
        for (id, from) in handshaking {
            guard let record = links[id] else { continue }
            counts[from, default: 0] += 1
            if case .awaitingHello(let since) = record.phase { silent[from, default: []].append((id, since)) }
        }
        let own = counts[network] ?? 0
        guard let (heaviest, count) = counts.max(by: { $0.value < $1.value }), count >= own + 2 else { return nil }
        return silent[heaviest]?.min { $0.since < $1.since }?.id
    }

    /// The network (``RemoteAddress/limitGroup(of:)``: an IPv4 address, an IPv6 /64) of every
    /// link's remote address, by its identity: what limits per network read without copying a
    /// link's record or parsing an address again.
    var networks: [ObjectIdentifier: String] = [:]

    /// How many peers are connected, or have an invitation being decided (an accepted link that
    /// said HELLO: pending and in its handshake), through links from `network`.
    func peerCount(fromNetwork network: String) -> Int {
        var count = 0
        for id in connectedLinks.values where networks[id] == network { count += 1 }
        for id in pendingLinks.values where handshaking[id] != nil && networks[id] == network { count += 1 }
        return count
    }

    /// Runs `body` on the record of the link at `index`, in place. Reading a field through
    /// `links.values[index]` copies the whole record first (the getter of `Dictionary.Values`
    /// returns a copy: a dozen references retained and released per frame, seen in the guess's
    /// profile); the mutable access yields the record where it is.
    mutating func withLink<Result>(at index: [ObjectIdentifier: LinkRecord].Index, _ body: (inout LinkRecord) -> Result) -> Result {
        body(&links.values[index])
    }

    /// Runs `body` on `peer`'s ledger in place; nil when it has none. (`ledgers[peer]?.…` moved the
    /// whole ledger out of the dictionary and back for each call, on every message sent and
    /// received.)
    mutating func withLedger<Result>(of peer: PeerID, _ body: (inout MessageLedger) -> Result) -> Result? {
        guard let index = ledgers.index(forKey: peer) else { return nil }
        return body(&ledgers.values[index])
    }

    /// Data from the peer connected through link `id`, the hot path: heard from now, and the
    /// data to post, or held until its `connected` is posted; `.elsewhere` when the link is not
    /// connected (or, with message resume, has not synced). On a link with message resume the
    /// message is counted, and every `acknowledgingEvery` messages, or after one of `largeBytes`
    /// or more, the count is returned with the connection to acknowledge it on. The record is
    /// changed in place, never copied.
    mutating func receiveData(
        on id: ObjectIdentifier, messageType: String?, payload: Data, at now: ContinuousClock.Instant, acknowledgingEvery: UInt64,
        orAtLeast largeBytes: Int = .max
    ) -> (DataDelivery, acknowledge: (connection: any Connection, count: UInt64)?) {
        guard let index = links.index(forKey: id) else { return (.elsewhere, nil) }
        var acknowledge: (connection: any Connection, count: UInt64)?
        let (resume, phase) = withLink(at: index) { ($0.resume, $0.phase) }
        if let resume {
            guard case .synced = resume, case .connected(let peer) = phase else { return (.elsewhere, nil) }
            if let count = withLedger(of: peer, { $0.receive(acknowledgingEvery: acknowledgingEvery, large: payload.count >= largeBytes) }) ?? nil {
                acknowledge = (withLink(at: index) { $0.connection }, count)
            }
        }
        return (withLink(at: index) { $0.receiveData(messageType: messageType, payload: payload, at: now) }, acknowledge)
    }

    /// Records `record` as the link of `id`, which is no longer closing if it was being moved
    /// from one phase to the next.
    mutating func insertLink(_ id: ObjectIdentifier, _ record: LinkRecord) {
        links[id] = record
        if networks[id] == nil { networks[id] = RemoteAddress.limitGroup(of: record.connection.remoteAddress) }
        closing.remove(id)
    }

    /// Forgets a link that this side lets go of, and every index entry that points to it. The
    /// link counts as closing until its connection reports closed (or it is inserted again).
    mutating func removeLink(_ id: ObjectIdentifier) -> LinkRecord? {
        guard let record = forgetLink(id) else { return nil }
        closing.insert(id)
        return record
    }

    /// Forgets a link whose connection has closed: nil when this side had let go of it already
    /// (and it is then no longer closing).
    mutating func linkClosed(_ id: ObjectIdentifier) -> LinkRecord? {
        if let record = forgetLink(id) { return record }
        closing.remove(id)
        return nil
    }

    private mutating func forgetLink(_ id: ObjectIdentifier) -> LinkRecord? {
        guard var record = links.removeValue(forKey: id) else { return nil }
        handshaking[id] = nil
        waiting[id] = nil
        networks[id] = nil
        if case .connected(let peer) = record.phase {
            record.streams.endAll { .streamInterrupted($0, peer: peer.displayName) }
        }
        switch record.phase {
        case .connected(let peer):
            if connectedLinks[peer] == id {
                connectedLinks[peer] = nil
                ledgers[peer]?.unwritten = []
            }
        case .deciding(let invitation):
            if pendingLinks[invitation.peer] == id { pendingLinks[invitation.peer] = nil }
        case .inviting(let outgoing):
            if let peer = outgoing.expectedPeer, pendingLinks[peer] == id { pendingLinks[peer] = nil }
        case .awaitingHello:
            break
        }
        return record
    }
}

/// One connection and where it stands.
struct LinkRecord {
    let connection: any Connection
    var phase: LinkPhase
    var lastHeard: ContinuousClock.Instant
    var lastSent: ContinuousClock.Instant
    /// Data (and streams opened) that arrived before the peer's `connected` was posted, held so
    /// that observers always hear `connected` first; nil once it has been posted.
    var heldData: [HeldPost]?
    /// Since when the connection has been unwritable (more than the high water mark queued for
    /// the peer); nil while it is writable.
    var backloggedSince: ContinuousClock.Instant?
    /// The heartbeats received in the current one-second window, and when it began.
    var heartbeats: (since: ContinuousClock.Instant, count: Int)
    /// The nonces of the connection's verification code, once both are known.
    var codeNonces: CodeNonces?
    /// On the advertiser's side, from its ACCEPT until the inviter's REVEAL: what the inviter
    /// committed to, and the nonce the ACCEPT carried.
    var awaitedReveal: (commitment: [UInt8], advertiserNonce: [UInt8])? {
        get { untilReveal?.fields.awaitedReveal }
        set { changeUntilReveal { $0.awaitedReveal = newValue } }
    }
    /// On the advertiser's side, from an ACCEPT that put a challenge until the inviter's REVEAL
    /// answers it: the link stays `deciding` (in its handshake, counted for its address) and is
    /// connected only if the answer checks.
    var challenge: InvitationChallenge? {
        get { untilReveal?.fields.challenge }
        set { changeUntilReveal { $0.challenge = newValue } }
    }
    /// ``awaitedReveal`` and ``challenge``, out of line: nil on every link past its handshake,
    /// where the two inline took 64 of the record's bytes (a host keeps a record per player).
    private var untilReveal: UntilReveal?
    /// On the advertiser's side, from the decision to accept until the ACCEPT has been handed to
    /// the connection: the link is still `deciding` (not yet among the connected peers, so
    /// nothing else is sent on it first) and unread.
    var isAccepted = false
    /// The link's byte streams (the peer's features are noted here from its HELLO or ACCEPT).
    var streams = LinkStreams()
    /// Where the link's message resume stands, when both sides announced it.
    var resume: LinkResume?

    /// A link that opened `now` on `connection`, in `phase`.
    init(connection: any Connection, phase: LinkPhase, now: ContinuousClock.Instant) {
        self.connection = connection
        self.phase = phase
        lastHeard = now
        lastSent = now
        heartbeats = (now, 0)
    }
}

/// The fields of a ``LinkRecord`` that only the advertiser's side of a handshake sets, between
/// its ACCEPT and the inviter's REVEAL, in one box.
indirect enum UntilReveal {
    case kept(Fields)

    struct Fields {
        var awaitedReveal: (commitment: [UInt8], advertiserNonce: [UInt8])?
        var challenge: InvitationChallenge?
    }

    var fields: Fields {
        switch self { case .kept(let fields): fields }
    }
}

extension LinkRecord {
    /// Changes the fields kept until the REVEAL; once both are nil the box goes.
    private mutating func changeUntilReveal(_ change: (inout UntilReveal.Fields) -> Void) {
        var fields = untilReveal?.fields ?? UntilReveal.Fields()
        change(&fields)
        untilReveal = fields.awaitedReveal == nil && fields.challenge == nil ? nil : .kept(fields)
    }

    /// See ``SessionState/receiveData(on:messageType:payload:at:)``.
    mutating func receiveData(messageType: String?, payload: Data, at now: ContinuousClock.Instant) -> DataDelivery {
        guard case .connected(let peer) = phase else { return .elsewhere }
        lastHeard = now
        let data = ReceivedData(peer: peer, messageType: messageType, payload: payload)
        guard heldData == nil else {
            heldData?.append(.data(data))
            return .held
        }
        return .post(data)
    }
}

/// Where a connected link with message resume stands (``WireProtocol/Feature/resume``).
enum LinkResume {
    /// This side's RESUME (`told`) went out when `linkStart` messages had been sent to the
    /// peer; the peer's is awaited, and nothing is written to the link until it comes.
    indirect case awaitingPeer(told: Frame.Resume, linkStart: UInt64)
    /// Both RESUMEs are in: messages flow, counted.
    case synced
}

/// What becomes of data received on a link: posted now, held until the peer's `connected` is
/// posted, or handled with the other frames (the link is not connected).
enum DataDelivery {
    case post(ReceivedData), held, elsewhere
}

/// A post held until the peer's `connected` has been posted.
enum HeldPost {
    case data(ReceivedData)
    case stream(IncomingStream)
    case resource(ResourceArrival)
}

/// The stages of a connection's life.
enum LinkPhase {
    /// Accepted; waiting for the inviter's hello since the given moment.
    case awaitingHello(since: ContinuousClock.Instant)
    /// Hello received; the invitation policy is deciding (or, with the link's `challenge`
    /// set, has accepted on condition and awaits the answer).
    indirect case deciding(Invitation)
    /// Opened by this side; hello sent, waiting for the answer.
    case inviting(OutgoingInvitation)
    /// A connected peer.
    case connected(PeerID)
}
