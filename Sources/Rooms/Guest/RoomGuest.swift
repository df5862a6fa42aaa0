import EventBus
import Foundation
import Logging
import Multipeer

/// What a guest's presenter is told, in the order it happened: one typed stream for everything
/// a room shows, whatever the game.
public enum RoomGuestEvent<Rules: GameRules>: Sendable {
    /// The host welcomed this guest (again, after a drop that lost too much).
    case welcomed(RoomWelcome<Rules>)
    /// Something happened in the room or the game, not seen before.
    case item(RoomItem<Rules>)
    /// The game as this guest now sees it.
    case view(Rules.View)
    /// What this guest's move told it alone.
    case reply(Rules.Event)
    /// Why the rules refused this guest's move.
    case refused(MoveRefusal)
    /// The host refused something else (a chat line too long, too fast).
    case error(GameError)
    /// The host left, or the link to it was lost.
    case hostLeft
}

/// A guest's side of a room running any game: it sends moves, chat and renames to the host,
/// keeps the room as this guest knows it (``RoomGuestState``), and tells a presenter everything
/// new through ``events``, in order.
///
/// Create it before inviting the host, so that the welcome cannot arrive unobserved.
public final class RoomGuest<Rules: GameRules>: Sendable {
    /// The guest's session.
    public let session: Session
    /// Everything this guest is told, in order (buffered up to a limit; read it).
    public let events: AsyncStream<RoomGuestEvent<Rules>>
    private let continuation: AsyncStream<RoomGuestEvent<Rules>>.Continuation
    private let state = Watched(RoomGuestState<Rules>())
    private let observations = ObservationBag()
    private let logger: Logger

    /// Starts following the room hosted by whoever `session` connects to.
    public init(session: Session, logger: Logger = Logger(label: "guessnum.room")) {
        self.session = session
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
        observations.add(contentsOf: [
            session.events.observe(.dataReceived) { [weak self] data in self?.received(data) },
            session.events.observe(.stateChanged) { [weak self] change in self?.peerChanged(change) },
        ])
    }

    /// Stops following the room; the session stays connected.
    public func stop() {
        observations.cancelAll()
        continuation.finish()
    }

    deinit {
        observations.cancelAll()
        continuation.finish()
    }

    /// The room as this guest knows it now.
    public var current: RoomGuestState<Rules> { state.value }

    /// What to invite the host with: the game this guest plays, and after a drop the last item
    /// it has, so that the host gives back the held seat and replays what came after.
    public var joinRequest: JoinRequest {
        let current = state.value
        return JoinRequest(resumeAfter: current.isWelcomed ? current.lastSequence : nil, game: Rules.kind.id)
    }

    /// Waits until the room as this guest knows it meets `condition` or `deadline` passes.
    @discardableResult
    public func state(until condition: @escaping @Sendable (RoomGuestState<Rules>) -> Bool, before deadline: ContinuousClock.Instant) async -> RoomGuestState<Rules> {
        await state.wait(until: condition, before: deadline)
    }

    // MARK: Sending

    /// Plays `move`.
    /// - Throws: ``GameError/Code/notJoined`` or ``GameError/Code/sendFailed``.
    public func play(_ move: Rules.Move) throws(GameError) {
        let payload: Data
        do { payload = try Rules.Codec.encode(move: move) } catch { throw .sendFailed(.messageEncodingFailed(Rules.Codec.moveType, error)) }
        try session.send(payload, messageType: Rules.Codec.moveType, toRoomHost: state.value.host)
    }

    /// Says `text` to everyone.
    /// - Throws: ``GameError/Code/chatTooLong``, ``GameError/Code/notJoined``, ``GameError/Code/sendFailed``.
    public func say(_ text: String) throws(GameError) {
        try RoomProtocol.checkChat(text)
        try send(ChatMessage(text: text))
    }

    /// Asks the host for another name; everyone sees the new one once the host agrees.
    /// - Throws: ``GameError/Code/invalidName`` (checked here first), ``GameError/Code/notJoined``,
    ///   ``GameError/Code/sendFailed``.
    public func rename(to name: String) throws(GameError) {
        try RoomProtocol.checkName(name)
        try send(RenameRequest(name: name))
    }

    /// Asks the host for what came after the last item this guest has (a replay, or a fresh
    /// welcome when the host no longer keeps it): for a guest back after a drop that the host
    /// did not notice, which took the new link for the old one and sends nothing by itself.
    public func requestCatchUp() throws(GameError) {
        let current = state.value
        try send(SyncRequest(after: current.isWelcomed ? current.lastSequence : nil))
    }

    private func send<Message: GameMessage>(_ message: Message) throws(GameError) {
        try session.send(message, toRoomHost: state.value.host)
    }

    // MARK: Receiving

    private func peerChanged(_ change: PeerStateChange) {
        switch change.state {
        case .connected:
            state.withLock { if $0.host == nil || $0.host?.identity == change.peer.identity { $0.host = change.peer } }
        case .notConnected:
            guard state.value.host == change.peer else { return }
            continuation.yield(.hostLeft)
        case .connecting: break
        }
    }

    private func received(_ data: ReceivedData) {
        if let host = state.value.host, data.peer != host { return }
        let message: RoomHostMessage<Rules>?
        do { message = try data.messageType.flatMap { try Rules.Codec.decode(type: $0, payload: data.payload) } } catch {
            logger.notice("Host sent a message that could not be decoded; it was ignored.", metadata: .game(peer: data.peer.displayName).merging(["error": "\(error)"]) { $1 })
            return
        }
        var told: [RoomGuestEvent<Rules>] = []
        switch message {
        case .welcome(let welcome)?:
            let held = state.withLock { state in
                state.take(welcome, from: data.peer)
                return state.take([]).taken  // what came after it while it was on its way
            }
            told = [.welcomed(welcome)] + held.map { .item($0) }
        case .batch(let batch)?: told = take(batch.items, from: data.peer, skipsNumbers: batch.hasOmissions)
        case .replay(_, let items)?: told = take(items, from: data.peer, skipsNumbers: true)
        case .view(let update)?:
            guard state.withLock({ $0.take(update) }) else { return }
            told = [.view(update.view)]
        case .reply(let event, _)?: told = [.reply(event)]
        case .refused(let refusal)?:
            state.withLock { $0.lastRefusal = refusal }
            told = [.refused(refusal)]
        case nil where data.messageType == GameErrorMessage.messageType:
            guard let message = decode(GameErrorMessage.self, data) else { return }
            told = [.error(message.error)]
        case nil:
            logger.notice("Host sent a message of an unknown type; it was ignored.", metadata: ["type": .string(data.messageType ?? "raw bytes")])
        }
        for event in told { continuation.yield(event) }
    }

    /// Takes in the numbered `items` from `host` (which `skipsNumbers` of items counted rather
    /// than listed); what to tell of them.
    private func take(_ items: [RoomItem<Rules>], from host: PeerID, skipsNumbers: Bool) -> [RoomGuestEvent<Rules>] {
        let now = ContinuousClock.now
        let (taken, missing) = state.withLock { state in
            if state.host == nil { state.host = host }
            let taken = state.take(items, skippingNumbers: skipsNumbers).taken
            return (taken, state.missingToAskFor(at: now))
        }
        // Items came after a gap (a host that took this guest's new link for its old one
        // sent them before what was missed): ask for what is missing; they wait for it.
        if let missing { try? send(SyncRequest(after: missing)) }
        return taken.map { .item($0) }
    }

    private func decode<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            logger.notice("Host sent a message that could not be decoded; it was ignored.", metadata: .game(peer: data.peer.displayName, code: error.code.rawValue))
            return nil
        }
    }
}

/// A room as one guest knows it: who it is here, who else is in, the scores, the items it has
/// taken in, and the game as it sees it.
public struct RoomGuestState<Rules: GameRules>: Sendable {
    /// The host, once connected.
    public internal(set) var host: PeerID?
    /// This guest, as the room names it; nil before the welcome.
    public internal(set) var you: PlayerRef?
    /// The current round's number.
    public internal(set) var round = 0
    /// The players this guest knows of, in join order: everyone, except in a big room whose
    /// welcome listed only some (see ``playerCount``).
    public internal(set) var players: [PlayerRef] = []
    /// How many players are in the room.
    public internal(set) var playerCount = 0
    /// The scores, most wins first.
    public internal(set) var scores: [RoomScores.Entry] = []
    /// The game as this guest sees it; nil before the welcome.
    public internal(set) var view: Rules.View?
    /// The sequence number of the last item taken in (or that the welcome or a view covered).
    public internal(set) var lastSequence: UInt64 = 0
    /// The game events taken in since the welcome, oldest first (at most ``eventLimit``).
    public internal(set) var gameEvents: [Rules.Event] = []
    /// The last refusal of this guest's moves.
    public internal(set) var lastRefusal: MoveRefusal?
    /// How long the host keeps this guest's seat after a drop, as its welcome said; nil when it
    /// keeps none (or before the welcome).
    public internal(set) var seatHold: Duration?
    /// How many welcomes this guest has had (a second one comes after a drop that lost too much).
    public internal(set) var welcomes = 0

    /// The most game events kept.
    public static var eventLimit: Int { 1_000 }

    /// Items that came after a gap in the numbering, held (in order) until what is missing
    /// arrives: a replay, or a welcome.
    private(set) var held: [RoomItem<Rules>] = []
    /// When this guest last asked for what is missing before ``held``.
    private var askedForGap: ContinuousClock.Instant?
    /// The most items held; past it the guest goes on from what it has, gap and all.
    static var heldLimit: Int { 10_000 }
    /// How long an unanswered request for what is missing waits before it is sent again.
    static var gapRetry: Duration { .seconds(1) }

    /// Whether the host welcomed this guest.
    public var isWelcomed: Bool { you != nil }

    mutating func take(_ welcome: RoomWelcome<Rules>, from host: PeerID) {
        self.host = host
        you = welcome.you
        round = welcome.round
        players = welcome.players
        playerCount = welcome.playerCount ?? welcome.players.count
        scores = welcome.scores
        view = welcome.view
        lastSequence = welcome.lastSequence
        seatHold = welcome.seatHoldSeconds.map { .seconds($0) }
        welcomes += 1
        gameEvents = []
    }

    /// Takes in the items not seen yet, in order, with those held before: returns them, and
    /// whether items after a gap are held. The host numbers every item it broadcasts one after
    /// another, so a number skipped is an item missed (sent while the host believed this guest
    /// away, or its link backlogged).
    ///
    /// A batch that `skipsNumbers` (the host counted some of its items rather than listing them,
    /// or it is a replay of what the host kept) has no gap up to its last item.
    mutating func take(_ items: [RoomItem<Rules>], skippingNumbers skipsNumbers: Bool = false) -> (taken: [RoomItem<Rules>], gap: Bool) {
        guard isWelcomed else { return ([], false) }
        var waiting: [UInt64: RoomItem<Rules>] = [:]
        for item in held + items {
            if let sequence = item.sequence, sequence > lastSequence { waiting[sequence] = item }
        }
        var new: [RoomItem<Rules>] = []
        if waiting.count > Self.heldLimit { lastSequence = waiting.keys.min().map { $0 - 1 } ?? lastSequence }  // give up the gap
        if skipsNumbers, let last = items.compactMap(\.sequence).max() {
            // Take everything up to the batch's last item in order, over the numbers it skips.
            for sequence in waiting.keys.sorted() where sequence <= last {
                guard let item = waiting.removeValue(forKey: sequence) else { continue }
                lastSequence = sequence
                new.append(item)
                apply(item)
            }
        }
        // `&+`: a host that numbers up to the last UInt64 must not stop the guest.
        while let item = waiting.removeValue(forKey: lastSequence &+ 1) {
            lastSequence &+= 1
            new.append(item)
            apply(item)
        }
        held = waiting.keys.sorted().compactMap { waiting[$0] }
        if held.isEmpty { askedForGap = nil }
        return (new, !held.isEmpty)
    }

    /// The sequence number after which to ask the host for what is missing, when items are
    /// held after a gap and it was not asked within ``gapRetry``; nil otherwise. Noted as asked.
    mutating func missingToAskFor(at now: ContinuousClock.Instant) -> UInt64? {
        guard !held.isEmpty, askedForGap.map({ now - $0 >= Self.gapRetry }) ?? true else { return nil }
        askedForGap = now
        return lastSequence
    }

    /// Takes in what `item` changes of the room.
    private mutating func apply(_ item: RoomItem<Rules>) {
        switch item {
        case .joined(let joined):
            players.append(joined.player)
            playerCount = joined.playerCount
        case .left(let left):
            players.removeAll { $0.id == left.player.id }
            playerCount = left.playerCount
        case .renamed(let renamed): players = players.map { $0.id == renamed.player.id ? renamed.player : $0 }
        case .scores(let update):
            scores = update.entries
            round = max(round, update.round)
        case .game(_, let event):
            gameEvents.append(event)
            if gameEvents.count > Self.eventLimit { gameEvents.removeFirst(gameEvents.count - Self.eventLimit) }
        case .away, .back, .chat, .unknown: break
        }
    }

    /// Takes in a fresh view unless it is older than what this guest has; whether it did.
    mutating func take(_ update: RoomViewUpdate<Rules>) -> Bool {
        guard isWelcomed, update.lastSequence >= lastSequence else { return false }
        view = update.view
        return true
    }
}
