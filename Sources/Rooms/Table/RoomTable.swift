import Foundation
import Multipeer

/// A room running a game, as a value: who sits in it (``RoomSeats``), the game's ``GameRules``,
/// the rounds and the wins, and the numbered items waiting to be broadcast. Every method decides
/// and records; none performs I/O, so the host that keeps one behind its lock carries out what it
/// returns (sends, posts) after releasing the lock.
///
/// Each item gets the next sequence number, so a welcome can say which items it already covers
/// and a player back after a drop can be replayed what came after the last one it has.
@usableFromInline package struct RoomTable<Rules: GameRules>: Sendable {
    /// What came of a move.
    @usableFromInline package enum MoveResult: Sendable {
        /// Played: what to tell the mover alone at once, the number of the first item the move
        /// broadcast (if any), and how the round ended, if it did.
        case played(reply: Rules.Event?, sequence: UInt64?, roundEnded: RoundResult?)
        /// The rules refused it; the mover is told why.
        case refused(MoveRefusal)
        /// Over the mover's move throttle; the error when the mover should be told.
        case throttled(GameError?)
        /// The mover has no seat.
        case notSeated
    }

    /// What came of a chat line.
    package enum ChatResult: Sendable {
        /// Relayed to everyone with the next broadcast.
        case relayed(RelayedChat)
        /// Nothing to relay (a blank line).
        case ignored
        /// Refused; the error when the player should be told.
        case refused(GameError?)
        /// The sender has no seat.
        case notSeated
    }

    /// What one broadcast tick sends.
    package struct Flush: Sendable {
        /// The items for everyone not away, nil when there are none.
        package var batch: RoomBatch<Rules>?
        /// The welcomes owed, each for its player's peer.
        package var welcomes: [(peer: PeerID, welcome: RoomWelcome<Rules>)] = []
        /// Every item numbered this tick, in order, those the batch only counts included (when
        /// ``RoomTable/keepsEveryItem``; otherwise none).
        package var everything: [RoomItem<Rules>] = []
        /// The replays owed: what each player back after a drop missed (the items after `after`),
        /// sent before the batch.
        package var replays: [(peer: PeerID, after: UInt64, items: [RoomItem<Rules>])] = []
    }

    /// The host, whose name no player may take.
    package let host: PlayerRef
    /// The game's rules and state.
    @usableFromInline package internal(set) var rules: Rules
    /// Who sits in the room.
    @usableFromInline package var seats: RoomSeats
    /// The current round's number: 0 before the first.
    @usableFromInline package private(set) var round = 0
    /// The sequence number of the last item.
    @usableFromInline package internal(set) var lastSequence: UInt64 = 0
    /// Each player's wins, by identity (kept while they are in the room).
    package private(set) var wins: [UUID: Int] = [:]
    /// The clocks of the players the game waits for.
    @usableFromInline package internal(set) var turnClock: TurnClock
    @usableFromInline var fanOut: RoomFanOut<Rules>
    private var recent: RecentItems<RoomItem<Rules>>
    /// Whether ``takeFlush()`` hands on every item numbered in the tick, counted ones included
    /// (``Flush/everything``), for a program that keeps or shows them all.
    @usableFromInline package var keepsEveryItem = false
    @usableFromInline var tick: [RoomItem<Rules>] = []

    /// A room of `host` playing `rules` (before its first round), with `configuration`, whose
    /// players' moves are throttled by `moveThrottle`.
    package init(rules: Rules, configuration: RoomConfiguration, host: PlayerRef, moveThrottle: Throttle) {
        self.rules = rules
        self.host = host
        seats = RoomSeats(configuration: configuration, host: host, moveThrottle: moveThrottle)
        turnClock = TurnClock(limit: configuration.turnTime)
        recent = RecentItems(limit: configuration.replayLimit)
        fanOut = RoomFanOut(maximumLinesPerTick: configuration.maximumLinesPerTick)
    }

    /// Goes on from a room kept before the host's program ended: the rules as they were (their
    /// round going on), `round` its number, `wins` by identity, and every player of `players`
    /// (their name and their peer's display name) in a seat held for them as away since `now`.
    /// Numbers go on `gap` past `lastSequence`, as the earlier life may have broadcast items after
    /// it was kept; a player back with a number from before gets a welcome, never a replay.
    package mutating func resume(
        round: Int, lastSequence: UInt64, gap: UInt64, players: [(player: PlayerRef, displayName: String)], wins: [UUID: Int],
        at now: ContinuousClock.Instant
    ) {
        resumedAt = round
        self.round = round
        self.lastSequence = lastSequence &+ gap
        self.wins = wins
        recent = RecentItems(limit: seats.configuration.replayLimit, floor: self.lastSequence)
        for (player, displayName) in players { seats.holdSeat(for: player, displayName: displayName, at: now, sequence: self.lastSequence) }
    }

    /// The round a room kept before the host's program ended went on at (``resume(round:lastSequence:gap:players:wins:at:)``);
    /// nil for a new room.
    package private(set) var resumedAt: Int?

    /// Everyone in the room, in join order.
    package var players: [PlayerRef] {
        seats.roster.members.values.sorted { $0.order < $1.order }.map(\.player)
    }

    /// Whether the current round is over (or none has started).
    @inlinable package var isBetweenRounds: Bool { round == 0 || rules.roundResult != nil }

    // MARK: Players

    /// Seats `peer` (see ``RoomSeats/seat(_:resumeAfter:)``) at `now`, telling everyone and the
    /// rules.
    package mutating func join(_ peer: PeerID, resumeAfter: UInt64? = nil, at now: ContinuousClock.Instant = .now) -> RoomSeats.Seating {
        defer { turnClock.sync(awaited: rules.awaited, at: now) }
        let seating = seats.seat(peer, resumeAfter: resumeAfter)
        switch seating {
        case .newcomer(let player):
            let sequence = nextSequence()
            enqueue(.joined(PlayerJoined(sequence: sequence, player: player, playerCount: seats.roster.count)))
            seats.joined(player.id, at: sequence)
            record(rules.playerJoined(player))
        case .returned(let player):
            enqueue(.back(PlayerBack(sequence: nextSequence(), player: player)))
        case .alreadySeated, .full, .badName: break
        }
        return seating
    }

    /// Player `id`'s link dropped at `now`: the seat is held; the rules are not told.
    package mutating func drop(_ id: UUID, at now: ContinuousClock.Instant) {
        guard let player = seats.drop(id, at: now) else { return }
        enqueue(.away(PlayerAway(sequence: nextSequence(), player: player, holdSeconds: seats.configuration.seatHoldSeconds ?? 0)))
    }

    /// Player `id` gave up their seat (left, removed, or their held seat ran out) at `now`:
    /// everyone and the rules are told. Returns how the round ended if that ended it.
    @discardableResult
    package mutating func leave(_ id: UUID, at now: ContinuousClock.Instant = .now) -> RoundResult? {
        defer { turnClock.sync(awaited: rules.awaited, at: now) }
        guard let (member, removed) = seats.unseat(id) else { return nil }
        wins[id] = nil
        enqueue(.left(PlayerLeft(sequence: nextSequence(), player: member.player, playerCount: seats.roster.count, removedByHost: removed)))
        let wasOver = isBetweenRounds
        record(rules.playerLeft(member.player))
        return settle(wasOver: wasOver)
    }

    /// Frees the seats held since before `deadline`; how the round ended if that ended it.
    package mutating func expireAway(before deadline: ContinuousClock.Instant, at now: ContinuousClock.Instant = .now) -> RoundResult? {
        seats.expired(before: deadline).reduce(nil) { ended, id in leave(id, at: now) ?? ended }
    }

    /// Renames player `id` (see ``RoomSeats/rename(_:to:at:)``), telling everyone.
    package mutating func rename(_ id: UUID, to name: String, at now: ContinuousClock.Instant) -> RoomSeats.Renaming {
        let renaming = seats.rename(id, to: name, at: now)
        if case .renamed(let previous, let player) = renaming {
            enqueue(.renamed(PlayerRenamed(sequence: nextSequence(), player: player, previousName: previous)))
            record(rules.playerRenamed(player))
        }
        return renaming
    }

    /// Relays player `id`'s chat `text`, within their chat throttle and the room's limits.
    package mutating func chat(_ text: String, from id: UUID, at now: ContinuousClock.Instant) -> ChatResult {
        guard let member = seats.roster[id] else { return .notSeated }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .ignored }
        if case .refused(let warn)? = seats.update(id, { $0.chatThrottle.admit(at: now) }) {
            return .refused(warn ? .chatThrottled(perSecond: seats.configuration.chatLinesPerSecond) : nil)
        }
        do { try RoomProtocol.checkChat(text) } catch { return .refused(error) }
        return .relayed(relay(text, from: member.player))
    }

    /// The host's own chat line, relayed like a player's.
    package mutating func hostChat(_ text: String) -> RelayedChat {
        relay(text, from: host)
    }

    // MARK: The game

    /// Starts the next round with everyone in the room at `now`, ending the current one if it
    /// goes on.
    package mutating func startRound(at now: ContinuousClock.Instant = .now) {
        round += 1
        record(rules.startRound(round, players: players))
        turnClock.sync(awaited: rules.awaited, at: now)
    }

    /// Starts the next round as ``startRound(at:)`` does, after `change` first changes the rules
    /// for it (the host's new settings), and when it throws nothing changes.
    package mutating func startRound(at now: ContinuousClock.Instant = .now, changing change: (inout Rules) throws(GameError) -> Void) throws(GameError) {
        var changed = rules
        try change(&changed)
        rules = changed
        startRound(at: now)
    }

    /// Times the players the game waits for at `now` (``RoomConfiguration/turnTime``): tells
    /// everyone of one with little time left, and lets the rules decide for those whose time is
    /// up. How the round ended, if that ended it.
    package mutating func timeTurns(at now: ContinuousClock.Instant) -> RoundResult? {
        guard turnClock.limit != nil, !isBetweenRounds else { return nil }
        let awaited = rules.awaited
        turnClock.sync(awaited: awaited, at: now)
        let expired = turnClock.expired(among: awaited, at: now)
        guard expired.isEmpty else {
            for player in expired { turnClock.moved(player.id) }
            record(rules.timedOut(expired))
            let result = settle(wasOver: false)
            turnClock.sync(awaited: rules.awaited, at: now)
            return result
        }
        for (player, left) in turnClock.warnings(among: awaited, at: now) {
            enqueue(.turnClock(TurnClockNotice(sequence: nextSequence(), player: player, secondsLeft: left)))
        }
        return nil
    }

    /// Plays `move` for player `id` at `now`, within their move throttle.
    @inlinable package mutating func move(_ move: Rules.Move, from id: UUID, at now: ContinuousClock.Instant) -> MoveResult {
        guard let (player, admission) = seats.update(id, { ($0.player, $0.moveThrottle.admit(at: now)) }) else { return .notSeated }
        if case .refused(let warn) = admission {
            return .throttled(warn ? Rules.movesThrottled(perSecond: seats.moveThrottle.rate) : nil)
        }
        let wasOver = isBetweenRounds
        do {
            let outcome = try rules.apply(move, from: player)
            let first = outcome.broadcast.isEmpty ? nil : lastSequence &+ 1
            record(outcome.broadcast)
            turnClock.moved(id)
            turnClock.sync(awaited: rules.awaited, at: now)
            // Settled only when the round ended (a call into unspecialized code otherwise).
            return .played(reply: outcome.reply, sequence: first, roundEnded: !wasOver && rules.roundResult != nil ? settle(wasOver: wasOver) : nil)
        } catch {
            return .refused(error)
        }
    }

    /// What `player` sees on coming in: in a big room some of the players
    /// (``RoomConfiguration/welcomePlayerLimit``, with the count) and the best scores
    /// (``RoomConfiguration/scoreboardLimit``).
    package func welcome(for player: PlayerRef) -> RoomWelcome<Rules> {
        welcomes(for: [player])[0]
    }

    /// The welcomes of `newcomers`, in order, sharing what they have in common.
    private func welcomes(for newcomers: [PlayerRef]) -> [RoomWelcome<Rules>] {
        guard !newcomers.isEmpty else { return [] }
        let configuration = seats.configuration
        let listed = seats.roster.some(configuration.welcomePlayerLimit)
        let count = seats.roster.count
        let best = bestScores(configuration.scoreboardLimit)
        let shared = Rules.everyoneSeesTheSame ? rules.view(for: nil) : nil
        return newcomers.map { player in
            RoomWelcome(
                you: player, round: round, lastSequence: lastSequence, players: listed, playerCount: listed.count < count ? count : nil,
                scores: best, seatHoldSeconds: configuration.seatHoldSeconds, view: shared ?? rules.view(for: player))
        }
    }

    /// The scores, most wins first (then by name): the players with wins alone, each looked up
    /// by identity, so that the room's other members are neither copied nor sorted.
    package var scores: [RoomScores.Entry] {
        wins.compactMap { id, count in seats.roster.members[id].map { RoomScores.Entry(player: $0.player, wins: count) } }
            .sorted(by: Self.ranksBefore)
    }

    /// The first `limit` of ``scores``, picked in one pass over the wins without sorting them all:
    /// what a welcome and a round's end list. (Built from every player in join order, sorted, a
    /// welcome at 10,000 players copied and sorted some 5 MB each broadcast tick, and the freed
    /// blocks stayed in the heap as free memory.)
    package func bestScores(_ limit: Int) -> [RoomScores.Entry] {
        guard limit > 0 else { return [] }
        var best: [RoomScores.Entry] = []
        for (id, count) in wins {
            guard let player = seats.roster.members[id]?.player else { continue }
            let entry = RoomScores.Entry(player: player, wins: count)
            if best.count == limit, let last = best.last, !Self.ranksBefore(entry, last) { continue }
            best.insert(entry, at: best.firstIndex { Self.ranksBefore(entry, $0) } ?? best.endIndex)
            if best.count > limit { best.removeLast() }
        }
        return best
    }

    /// Whether `entry` is listed before `other`: more wins, or as many and a name that sorts
    /// first (names are unique in a room, so no two entries tie).
    private static func ranksBefore(_ entry: RoomScores.Entry, _ other: RoomScores.Entry) -> Bool {
        (entry.wins, other.player.name) > (other.wins, entry.player.name)
    }

    // MARK: Broadcasting

    /// Everything to send now; afterwards nothing is pending.
    package mutating func takeFlush() -> Flush {
        var flush = Flush()
        // Replays come from what was broadcast before this tick: its batch goes to everyone.
        for (member, asked, after) in seats.takeReplays() {
            if asked >= recent.floor, let items = recent.after(after, newest: lastSequence) {
                flush.replays.append((member.peer, after, items))
            } else {
                seats.welcomeAgain(member.player.id)
            }
        }
        if keepsEveryItem {
            flush.everything = tick
            tick = []
        }
        if let batch = fanOut.take() {
            recent.append(contentsOf: batch.items)
            flush.batch = batch
        }
        // The next tick lists fewer lines in a big room.
        let players = seats.roster.count
        let configuration = seats.configuration
        fanOut.maximumLinesPerTick = configuration.listedLinesPerTick(
            players: players, interval: configuration.broadcastInterval(players: players), cap: configuration.maximumLinesPerTick)
        let owed = seats.takeWelcomes()
        flush.welcomes = Array(zip(owed.map(\.peer), welcomes(for: owed.map(\.player))))
        return flush
    }

    @inlinable mutating func record(_ events: [Rules.Event]) {
        for event in events {
            let sequence = nextSequence()
            rules.numbered(event, as: sequence)
            enqueue(.game(sequence: sequence, event: event))
        }
    }

    /// Credits the winners when the round, going on before (`wasOver` false), is now over.
    @usableFromInline mutating func settle(wasOver: Bool) -> RoundResult? {
        guard !wasOver, let result = rules.roundResult else { return nil }
        for winner in result.winners where seats.roster[winner.id] != nil { wins[winner.id, default: 0] += 1 }
        if !Rules.broadcastsOwnScores {
            let best = bestScores(seats.configuration.scoreboardLimit)
            enqueue(.scores(RoomScores(sequence: nextSequence(), round: round, winners: result.winners, entries: best)))
        }
        return result
    }

    private mutating func relay(_ text: String, from player: PlayerRef) -> RelayedChat {
        let line = RelayedChat(sequence: nextSequence(), from: player, text: text)
        enqueue(.chat(line))
        return line
    }

    @inlinable mutating func enqueue(_ item: RoomItem<Rules>) {
        if keepsEveryItem { tick.append(item) }
        fanOut.enqueue(item)
    }

    @inlinable mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }
}
