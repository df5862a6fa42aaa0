import Foundation
import Multipeer

/// Who sits in a room, as a value: the players under their unique names, the seats held for
/// players whose link dropped, the players the host removed, and who is owed a welcome or a
/// replay. It decides and records; it numbers nothing and sends nothing, so the room (or a game
/// table built on it) turns what it returns into broadcast items.
///
/// Every operation costs the same whatever the number of players, except those that say so.
@usableFromInline package struct RoomSeats: Sendable {
    /// What came of seating a peer.
    package enum Seating: Sendable {
        /// A newcomer, now seated under this (unique) name.
        case newcomer(PlayerRef)
        /// A player who was away took their seat back.
        case returned(PlayerRef)
        /// The peer is seated already and was not away.
        case alreadySeated
        /// Every seat is taken.
        case full
        /// The peer's name breaks the room's rules (``RoomProtocol/checkName(_:)``).
        case badName(GameError)
    }

    /// What came of a rename.
    package enum Renaming: Sendable {
        /// Renamed: the name before and the player now.
        case renamed(previous: String, player: PlayerRef)
        /// The same name: nothing to do.
        case unchanged
        /// Refused; the error when the player should be told (a throttle tells at most once a second).
        case refused(GameError?)
        /// Not a player.
        case notSeated
    }

    /// A player the host removed: while the removal lasts, the player is turned away under their
    /// identity, and so is anyone new whose name looks like theirs or who comes from their network.
    package struct Removal: Sendable, Hashable {
        /// The player's identity.
        package let id: UUID
        /// The name the player had.
        package let name: String
        /// The address the player's link came from, if known.
        package let address: String?
        /// Until when the player is turned away.
        package let until: ContinuousClock.Instant
        /// Whether the player's leaving is still to be announced (as removed by the host).
        package var leaving: Bool

        /// The network the removal also turns away (`RemoteAddress.limitGroup(of:)`).
        package var network: String? { address.map(RemoteAddress.limitGroup(of:)) }
    }

    /// The room's rules and limits.
    package let configuration: RoomConfiguration
    /// The throttle each player's moves start with (the game's).
    @usableFromInline package let moveThrottle: Throttle
    /// The players, by identity.
    @usableFromInline package internal(set) var roster: PlayerRoster
    /// Players the host removed, by identity, while they may not come back.
    package private(set) var removals: [UUID: Removal] = [:]
    /// Players whose link dropped, by identity, and since when: their seats are held.
    package private(set) var away: [UUID: ContinuousClock.Instant] = [:]
    /// The address each player's link came from (its invitation's): a seat held for a player
    /// who is away still counts toward that address's share.
    package private(set) var addresses: [UUID: String] = [:]
    private var awaitingWelcome: Set<UUID> = []
    /// Players back after a drop, and the last item each has: they get what came after.
    private var awaitingReplay: [UUID: UInt64] = [:]
    /// Each player's first item: the number of its join (or of the resume that seated it). A
    /// replay never reaches back before it: what was said before a player joined is not theirs
    /// to read, whatever `after` it asks for.
    private var joinedAt: [UUID: UInt64] = [:]

    /// An empty room of `host` (whose name is reserved), whose players' moves start with `moveThrottle`.
    package init(configuration: RoomConfiguration, host: PlayerRef, moveThrottle: Throttle) {
        self.configuration = configuration
        self.moveThrottle = moveThrottle
        roster = PlayerRoster(reserving: host)
    }

    // MARK: Seating

    /// Seats `peer`: a newcomer (who then awaits ``joined(_:at:)``), or a player back in a held
    /// seat, who gets what came after `resumeAfter` (the last item it has), if that is kept.
    package mutating func seat(_ peer: PeerID, resumeAfter: UInt64? = nil) -> Seating {
        if let member = roster[peer.identity] {
            guard away.removeValue(forKey: peer.identity) != nil else { return .alreadySeated }
            catchUp(peer.identity, after: resumeAfter)
            return .returned(member.player)
        }
        if roster.count >= configuration.maximumPlayers { return .full }
        do { try RoomProtocol.checkName(peer.displayName) } catch { return .badName(error) }
        let (player, _) = roster.admit(
            peer, moveThrottle: moveThrottle, chatThrottle: configuration.chatThrottle, budget: configuration.messageBudget)
        return .newcomer(player)
    }

    /// Notes that newcomer `id`'s join is broadcast item `sequence`: its replays start there, and
    /// it is owed a welcome.
    package mutating func joined(_ id: UUID, at sequence: UInt64) {
        joinedAt[id] = sequence
        awaitingWelcome.insert(id)
    }

    /// Seats `peer` in a seat held for it as away since `now`, as a resumed room does for the
    /// players of its earlier life; its replays start at `sequence`. Nothing when no seat is held
    /// in this room (``RoomConfiguration/awayGracePeriod`` zero) or the name is not a peer's.
    package mutating func holdSeat(for player: PlayerRef, displayName: String, at now: ContinuousClock.Instant, sequence: UInt64) {
        guard configuration.awayGracePeriod > .zero, let peer = try? PeerID(displayName: displayName, identity: player.id) else { return }
        _ = roster.admit(peer, moveThrottle: moveThrottle, chatThrottle: configuration.chatThrottle, budget: configuration.messageBudget)
        if roster[player.id]?.player.name != player.name { _ = try? roster.rename(player.id, to: player.name) }
        away[player.id] = now
        joinedAt[player.id] = sequence
    }

    /// Marks player `id` away at `now` (their link dropped): the seat, name, scores and throttles
    /// stay until they come back (``seat(_:resumeAfter:)``) or ``expired(before:)``. Nil when
    /// `id` is not a player, or is away already.
    package mutating func drop(_ id: UUID, at now: ContinuousClock.Instant) -> PlayerRef? {
        guard let member = roster[id], away[id] == nil else { return nil }
        away[id] = now
        awaitingWelcome.remove(id)
        awaitingReplay[id] = nil
        return member.player
    }

    /// The players away since before `deadline`, whose seats are no longer held.
    package func expired(before deadline: ContinuousClock.Instant) -> [UUID] {
        guard away.values.contains(where: { $0 < deadline }) else { return [] }
        return away.filter { $0.value < deadline }.map(\.key)
    }

    /// Frees player `id`'s seat: the member it was, and whether the host removed them (said once).
    package mutating func unseat(_ id: UUID) -> (member: PlayerRoster.Member, removedByHost: Bool)? {
        away[id] = nil
        addresses[id] = nil
        guard let member = roster.remove(id) else { return nil }
        awaitingWelcome.remove(id)
        awaitingReplay[id] = nil
        joinedAt[id] = nil
        let removed = removals[id]?.leaving == true
        removals[id]?.leaving = false
        return (member, removed)
    }

    /// Gives player `id` a unique form of `name`, if its chat throttle allows a request now.
    package mutating func rename(_ id: UUID, to name: String, at now: ContinuousClock.Instant) -> Renaming {
        guard let decision = roster.update(id, { $0.chatThrottle.admit(at: now) }) else { return .notSeated }
        if case .refused(let warn) = decision { return .refused(warn ? .chatThrottled(perSecond: configuration.chatLinesPerSecond) : nil) }
        do {
            guard let change = try roster.rename(id, to: name) else { return .unchanged }
            return .renamed(previous: change.previous, player: change.player)
        } catch {
            return .refused(error)
        }
    }

    // MARK: Admission

    /// Whether `peer`, whose link comes from `address` (nil: not known), may come in at `now`:
    /// declined when the room is full (a seat held for the peer is theirs whether or not it is),
    /// or when the host removed them a short while ago, by identity, by a name that looks like
    /// theirs, or by their network.
    package mutating func admission(of peer: PeerID, from address: String?, at now: ContinuousClock.Instant) -> InvitationDecision {
        if let removal = removal(barring: peer.identity, named: peer.displayName, from: address, at: now) {
            return .decline(reason: Self.removedReason(remaining: removal.until - now))
        }
        if roster.count >= configuration.maximumPlayers && away[peer.identity] == nil { return .decline(reason: "the game is full") }
        return .accept
    }

    /// Whether the inviter `peer`, whose link comes from `address`, may come in at `now`: as
    /// ``admission(of:from:at:)``, and declined too when, with `connected` peers connected from
    /// that address already and the seats held for players away from it (dropping links cannot
    /// make room for more), ``RoomConfiguration/maximumPlayersPerAddress`` would be passed.
    /// An inviter that may come in has its address noted.
    package mutating func admit(_ peer: PeerID, from address: String, connected: Int, at now: ContinuousClock.Instant) -> InvitationDecision {
        let decision = admission(of: peer, from: address, at: now)
        guard decision == .accept else { return decision }
        if connected + heldSeats(from: address, besides: peer.identity) > configuration.maximumPlayersPerAddress {
            return .decline(reason: GameError.tooManyFromAddress(configuration.maximumPlayersPerAddress).message)
        }
        note(address: address, of: peer.identity)
        return .accept
    }

    /// What a guest the host removed (or one turned away with them) is told, with how long is left.
    package static func removedReason(remaining: Duration) -> String {
        let minutes = max(1, Int((remaining.components.seconds + 59) / 60))
        return "the host removed you from this game a short while ago; you may try again in \(minutes == 1 ? "a minute" : "\(minutes) minutes")"
    }

    /// How many seats are held for players away whose link came from `address`, `peer`'s own
    /// aside: dropping links cannot make room for more from one address. Costs a look at every
    /// player away.
    package func heldSeats(from address: String, besides peer: UUID) -> Int {
        away.keys.count { $0 != peer && addresses[$0] == address }
    }

    /// Notes that player `id`'s link came from `address`.
    package mutating func note(address: String, of id: UUID) {
        addresses[id] = address
    }

    /// The address the link of player `id` came from, while they are in the room or removed.
    package func address(of id: UUID) -> String? {
        addresses[id] ?? removals[id]?.address
    }

    // MARK: Removals

    /// The player called `name`: the one with exactly that name, or else the only one whose name
    /// looks like it (``PlayerRoster/fold(_:)``); nil when there is none. Costs a look at every player.
    package func member(named name: String) -> PlayerRoster.Member? {
        let members = roster.members.values
        if let exact = members.first(where: { $0.player.name == name }) { return exact }
        let folded = PlayerRoster.fold(name)
        let alike = members.filter { PlayerRoster.fold($0.player.name) == folded }
        return alike.count == 1 ? alike.first : nil
    }

    /// Records that the host removes the player called `name` (see ``member(named:)``), whose
    /// link came from `address`, until `until`; nil when nobody in the room has that name.
    package mutating func remove(named name: String, until: ContinuousClock.Instant, address: (UUID) -> String?) -> (PlayerRoster.Member, Removal)? {
        guard let member = member(named: name) else { return nil }
        let removal = Removal(id: member.player.id, name: member.player.name, address: address(member.player.id), until: until, leaving: true)
        removals[member.player.id] = removal
        return (member, removal)
    }

    /// Lifts every removal of a player whose name looks like `name` (``PlayerRoster/fold(_:)``):
    /// a removal turns that name away, so lifting one of two would let nobody called so back.
    /// Returns the removals lifted, oldest first; none when no removed player had that name.
    package mutating func readmit(named name: String) -> [Removal] {
        let folded = PlayerRoster.fold(name)
        let lifted = removals.values.filter { PlayerRoster.fold($0.name) == folded }.sorted { $0.until < $1.until }
        for removal in lifted { removals[removal.id] = nil }
        return lifted
    }

    /// The removal that turns away the peer `id` called `name`, from `address`, at `now`: its
    /// own, or (for someone without a seat here) one whose name looks like `name` or whose network
    /// is `address`'s. Nil when nothing does. Forgets removals whose time is up.
    package mutating func removal(barring id: UUID, named name: String, from address: String?, at now: ContinuousClock.Instant) -> Removal? {
        if !removals.isEmpty { removals = removals.filter { $0.value.until > now || $0.value.leaving } }
        guard !removals.isEmpty else { return nil }
        if let own = removals[id] { return own }
        // A player seated here (away, coming back) keeps their seat, whatever their address.
        guard roster[id] == nil else { return nil }
        let folded = PlayerRoster.fold(name)
        let network = address.map(RemoteAddress.limitGroup(of:))
        return removals.values.sorted { $0.until > $1.until }.first { removal in
            PlayerRoster.fold(removal.name) == folded || (network != nil && removal.network == network)
        }
    }

    /// Whether `id` is a removed player still turned away at `now` (forgets those whose time is up).
    package mutating func isRemoved(_ id: UUID, at now: ContinuousClock.Instant) -> Bool {
        removals = removals.filter { $0.value.until > now || $0.value.leaving }
        return removals[id] != nil
    }

    // MARK: Welcomes and replays

    /// Queues a fresh welcome for player `id` (one that missed batches while it was not
    /// reading), without the throttle of a request; nothing for someone not seated.
    package mutating func welcomeAgain(_ id: UUID) {
        if roster[id] != nil { awaitingWelcome.insert(id) }
    }

    /// Schedules a fresh welcome for player `id`, or with `after` a replay of what came after
    /// that item; false when it is not a player or asks too often.
    package mutating func requestWelcome(for id: UUID, at now: ContinuousClock.Instant, after: UInt64? = nil) -> Bool {
        guard let decision = roster.update(id, { $0.chatThrottle.admit(at: now) }), decision == .allowed else { return false }
        catchUp(id, after: after)
        return true
    }

    /// The players owed a replay, each with the last item it asked after and the first it may
    /// be given (never before its own join); afterwards none is owed.
    package mutating func takeReplays() -> [(member: PlayerRoster.Member, asked: UInt64, after: UInt64)] {
        guard !awaitingReplay.isEmpty else { return [] }
        defer { awaitingReplay.removeAll(keepingCapacity: true) }
        return awaitingReplay.compactMap { id, asked in
            roster[id].map { ($0, asked, max(asked, joinedAt[id] ?? 0)) }
        }
    }

    /// The players owed a welcome; afterwards none is.
    package mutating func takeWelcomes() -> [PlayerRoster.Member] {
        guard !awaitingWelcome.isEmpty else { return [] }
        defer { awaitingWelcome.removeAll(keepingCapacity: true) }
        return awaitingWelcome.compactMap { roster[$0] }
    }

    /// Schedules what player `id` needs to be current: a replay of the items after `after`, or a
    /// fresh welcome (without `after`, or when those items are no longer kept).
    private mutating func catchUp(_ id: UUID, after: UInt64?) {
        if let after {
            awaitingReplay[id] = after
        } else {
            awaitingWelcome.insert(id)
        }
    }

    // MARK: Budgets

    /// Charges one message from player `id` to its budget; nil when it is not a player.
    @usableFromInline package mutating func charge(_ id: UUID, at now: ContinuousClock.Instant) -> MessageBudget.Decision? {
        roster.update(id) { $0.budget.charge(at: now) }
    }

    /// Records that player `id` was refused for `refusal`; true the first time (the time to log it).
    package mutating func recordRefusal(_ refusal: Refusal, by id: UUID) -> Bool {
        roster.update(id) { $0.loggedRefusals.insert(refusal).inserted } ?? false
    }

    /// Runs `body` on player `id`'s member (its throttles, its name); nil when it is not a player.
    @inlinable package mutating func update<Result>(_ id: UUID, _ body: (inout PlayerRoster.Member) -> Result) -> Result? {
        roster.update(id, body)
    }
}
