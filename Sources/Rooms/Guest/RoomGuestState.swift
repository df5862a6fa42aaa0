import Foundation
import Multipeer

/// A room as one guest knows it: who it is here, who else is in, the scores, the items it has
/// taken in, and the game as it sees it. A value with no I/O: ``RoomGuest`` hands it what the
/// host sends (``take(_:from:)``) and shows what that told.
///
/// It keeps the host's order whatever the order of arrival: items after a gap in the numbering
/// wait for what is missing; a reply the host numbered as its move's broadcast item waits for
/// the items numbered before it, and its broadcast copy is not told again; from a drop of the
/// link until what was missed arrives (a replay or a fresh welcome), broadcasts wait.
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
    /// The players whose link dropped and whose seats the host holds, as the room last said.
    public internal(set) var away: Set<UUID> = []
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
    /// How many replays of missed items have arrived (after drops).
    public internal(set) var replays = 0
    /// Broadcasts that came after the link to the host dropped, before what was missed meanwhile
    /// (a replay or a fresh welcome): taken in after it, so that none carries the guest past
    /// the items it missed. Nil when not waiting for a catch-up.
    public internal(set) var heldBatches: [RoomBatch<Rules>]?

    /// The most game events kept.
    public static var eventLimit: Int { 1_000 }
    /// The most broadcasts held while waiting for a catch-up; one more and they are taken in as
    /// they are (the items missed before them are then left out, as a fresh welcome would).
    public static var heldBatchLimit: Int { 256 }

    /// Items that came after a gap in the numbering, held (in order) until what is missing
    /// arrives: a replay, or a welcome.
    private(set) var held: [RoomItem<Rules>] = []
    /// Replies numbered as their broadcast item that came before items numbered earlier:
    /// number → event, each told once those have been.
    private var heldReplies: [UInt64: Rules.Event] = [:]
    /// The numbers of replies told before their broadcast copy arrived.
    private var toldReplies: Set<UInt64> = []
    /// When this guest last asked for what is missing before ``held``.
    private var askedForGap: ContinuousClock.Instant?
    /// The most items held; past it the guest goes on from what it has, gap and all.
    static var heldLimit: Int { 10_000 }
    /// How long an unanswered request for what is missing waits before it is sent again.
    static var gapRetry: Duration { .seconds(1) }

    /// Whether the host welcomed this guest.
    public var isWelcomed: Bool { you != nil }

    public init() {}

    // MARK: Messages

    /// Takes in what the host (`sender`) sent; returns what to tell, in the host's order.
    public mutating func take(_ message: RoomHostMessage<Rules>, from sender: PeerID) -> [RoomGuestEvent<Rules>] {
        switch message {
        case .welcome(let welcome):
            take(welcome, from: sender)
            // What came after it while it was on its way, then what waited for a catch-up.
            return [.welcomed(welcome)] + told(taking: []) + releaseHeldBatches()
        case .batch(let batch):
            if host == nil { host = sender }
            guard isWelcomed else { return [] }
            guard let heldCount = heldBatches?.count else { return take(batch) }
            guard heldCount < Self.heldBatchLimit else { return releaseHeldBatches() + take(batch) }
            heldBatches?.append(batch)
            return []
        case .replay(_, let items):
            if host == nil { host = sender }
            guard isWelcomed else { return [] }
            replays += 1
            let told = told(taking: items, skippingNumbers: true)
            let missed = told.count { if case .item(let item) = $0 { item.isNews(to: you?.id) } else { false } }
            return [.caughtUp(missed: missed)] + told + releaseHeldBatches()
        case .view(let update):
            return take(update) ? [.view(update.view)] : []
        case .reply(let event, let sequence):
            guard let sequence, isWelcomed else { return [.reply(event)] }
            guard sequence > lastSequence else { return [] }  // its broadcast copy came first
            heldReplies[sequence] = event
            return told(taking: [])
        case .refused(let refusal):
            lastRefusal = refusal
            return [.refused(refusal)]
        }
    }

    /// The link to the host dropped: broadcasts that come before what was missed (a replay or
    /// a fresh welcome) wait for it. Nothing to wait for before the first welcome, nor in a game
    /// whose replays are sent as batches (``RoomCodec/replaysAsBatches``): those cannot be told
    /// from the live ones, and the numbering keeps them in order.
    public mutating func holdBroadcasts() {
        if isWelcomed, !Rules.Codec.replaysAsBatches, heldBatches == nil { heldBatches = [] }
    }

    /// Whether what was missed since `before` (the room when the link dropped) has arrived: a
    /// fresh welcome, a replay, or — in a game whose replays are sent as batches — new items.
    public func hasCaughtUp(since before: RoomGuestState<Rules>) -> Bool {
        welcomes != before.welcomes || replays != before.replays || (Rules.Codec.replaysAsBatches && lastSequence != before.lastSequence)
    }

    /// Takes in the broadcasts held since the link dropped (see ``holdBroadcasts()``); returns
    /// what to tell. The items missed before them are not told.
    public mutating func releaseHeldBatches() -> [RoomGuestEvent<Rules>] {
        guard let batches = heldBatches else { return [] }
        heldBatches = nil
        return batches.flatMap { take($0) }
    }

    mutating func take(_ welcome: RoomWelcome<Rules>, from host: PeerID) {
        self.host = host
        you = welcome.you
        round = welcome.round
        players = welcome.players
        away = []
        playerCount = welcome.playerCount ?? welcome.players.count
        scores = welcome.scores
        view = welcome.view
        lastSequence = welcome.lastSequence
        seatHold = welcome.seatHoldSeconds.flatMap { $0 > 0 ? .seconds($0) : nil }
        welcomes += 1
        gameEvents = []
        toldReplies = toldReplies.filter { $0 > lastSequence }
    }

    private mutating func take(_ batch: RoomBatch<Rules>) -> [RoomGuestEvent<Rules>] {
        var told = told(taking: batch.items, skippingNumbers: batch.hasOmissions)
        // A big room lists only some joins and leaves, and then says how many players there are.
        if let count = batch.playerCount { playerCount = count }
        if batch.omittedEvents > 0 { told.append(.omitted(events: batch.omittedEvents)) }
        return told
    }

    /// Takes in a fresh view unless it is older than what this guest has; whether it did.
    mutating func take(_ update: RoomViewUpdate<Rules>) -> Bool {
        guard isWelcomed, update.lastSequence >= lastSequence else { return false }
        view = update.view
        return true
    }

    // MARK: Numbered items

    /// Takes in the items not seen yet, in order, with those held before: returns them, and
    /// whether items after a gap are held.
    mutating func take(_ items: [RoomItem<Rules>], skippingNumbers skipsNumbers: Bool = false) -> (taken: [RoomItem<Rules>], gap: Bool) {
        let told = told(taking: items, skippingNumbers: skipsNumbers)
        return (told.compactMap { if case .item(let item) = $0 { item } else { nil } }, !held.isEmpty)
    }

    /// Takes in the items not seen yet, in order, with those held before; returns what to tell.
    /// The host numbers every item it broadcasts one after another, so a number skipped is an
    /// item missed (sent while the host believed this guest away, or its link backlogged) —
    /// or a reply's broadcast copy left out of a busy tick, the reply standing in for it.
    ///
    /// A batch that `skipsNumbers` (the host counted some of its items rather than listing them,
    /// or it is a replay of what the host kept) has no gap up to its last item, and nothing
    /// more will come before the replies held.
    private mutating func told(taking items: [RoomItem<Rules>], skippingNumbers skipsNumbers: Bool = false) -> [RoomGuestEvent<Rules>] {
        guard isWelcomed else { return [] }
        var waiting: [UInt64: RoomItem<Rules>] = [:]
        for item in held + items {
            if let sequence = item.sequence, sequence > lastSequence { waiting[sequence] = item }
        }
        if waiting.count > Self.heldLimit { lastSequence = waiting.keys.min().map { $0 - 1 } ?? lastSequence }  // give up the gap
        var told: [RoomGuestEvent<Rules>] = []
        if skipsNumbers, let last = items.compactMap(\.sequence).max() {
            // Take everything up to the batch's last item in order, over the numbers it skips.
            for sequence in waiting.keys.sorted() where sequence <= last {
                guard let item = waiting.removeValue(forKey: sequence) else { continue }
                told += take(item, numbered: sequence)
            }
        }
        // `&+`: a host that numbers up to the last UInt64 must not stop the guest.
        while true {
            let next = lastSequence &+ 1
            if let item = waiting.removeValue(forKey: next) {
                told += take(item, numbered: next)
            } else if heldReplies[next] != nil, waiting[next &+ 1] != nil {
                // Its copy was left out, and what came after it is here: the reply stands in for it.
                told += releaseReplies(before: next &+ 1)
                lastSequence = next
            } else {
                break
            }
        }
        // A reply that is next is told now; after a tick that left items out (or at the end of
        // the numbers) nothing more will come before any.
        told += releaseReplies(before: skipsNumbers || lastSequence >= .max - 1 ? nil : lastSequence + 2)
        held = waiting.keys.sorted().compactMap { waiting[$0] }
        if held.isEmpty { askedForGap = nil }
        return told
    }

    /// Takes in `item`, numbered `sequence` and next in order, after the replies numbered before it.
    private mutating func take(_ item: RoomItem<Rules>, numbered sequence: UInt64) -> [RoomGuestEvent<Rules>] {
        var told = releaseReplies(before: sequence)
        heldReplies[sequence] = nil  // its copy is here: told as the item instead
        lastSequence = sequence
        apply(item)
        told.append(toldReplies.remove(sequence) == nil ? .item(item) : .replyCopy(item))
        return told
    }

    /// Tells the held replies numbered below `sequence` (all of them when nil), in order.
    private mutating func releaseReplies(before sequence: UInt64?) -> [RoomGuestEvent<Rules>] {
        let due = heldReplies.keys.filter { number in sequence.map { number < $0 } ?? true }.sorted()
        guard !due.isEmpty else { return [] }
        if toldReplies.count > 4096 { toldReplies = toldReplies.filter { $0 > lastSequence } }
        var told: [RoomGuestEvent<Rules>] = []
        for number in due {
            guard let event = heldReplies.removeValue(forKey: number) else { continue }
            toldReplies.insert(number)
            told.append(.reply(event))
        }
        return told
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
            away.remove(left.player.id)
            playerCount = left.playerCount
        case .renamed(let renamed):
            players = players.map { $0.id == renamed.player.id ? renamed.player : $0 }
            if renamed.player.id == you?.id { you = renamed.player }
        case .scores(let update):
            scores = update.entries
            round = max(round, update.round)
        case .game(_, let event):
            gameEvents.append(event)
            if gameEvents.count > Self.eventLimit { gameEvents.removeFirst(gameEvents.count - Self.eventLimit) }
        case .away(let away):
            self.away.insert(away.player.id)
        case .back(let back):
            away.remove(back.player.id)
            // A big room's welcome lists only some players: one back is known from now on.
            if !players.contains(where: { $0.id == back.player.id }) { players.append(back.player) }
        case .chat, .turnClock, .unknown: break
        }
    }
}
