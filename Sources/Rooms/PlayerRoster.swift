import Foundation
import Multipeer
import SafeText

/// The players of a room, by identity, each under a name unique in the room.
///
/// Names are compared by how they look, not by their code points (see ``fold(_:)``): without
/// regard to case and with lookalike letters from other scripts taken as the same. A newcomer
/// whose name is taken gets the first free "NAME (2)", "NAME (3)"… (shortened to fit 63 bytes).
/// The host's own name is reserved.
/// Every operation costs the same whatever the number of players.
@usableFromInline package struct PlayerRoster: Sendable {
    /// One player and what the host keeps for it.
    @usableFromInline package struct Member: Sendable {
        @usableFromInline package var player: PlayerRef
        package let peer: PeerID
        /// Join order, for stable listings.
        package let order: UInt64
        /// The throttle of the game's moves (guesses, marks, throws).
        @usableFromInline package var moveThrottle: Throttle
        /// The throttle of chat lines, renames and sync requests.
        package var chatThrottle: Throttle
        /// The one budget every message counts against.
        package var budget: MessageBudget
        /// The kinds of refusal already logged for this player (each is logged once).
        package var loggedRefusals: Set<Refusal> = []
    }

    @usableFromInline package internal(set) var members: [UUID: Member] = [:]
    private var owners: [String: UUID] = [:]
    private var nextSuffix: [String: Int] = [:]
    private var nextOrder: UInt64 = 0

    /// A roster where `reserved` (the host) already owns its name.
    package init(reserving reserved: PlayerRef) {
        owners[Self.fold(reserved.name)] = reserved.id
    }

    package var count: Int { members.count }

    package subscript(id: UUID) -> Member? { members[id] }

    /// Adds `peer` under a unique name; a peer already present keeps its entry.
    package mutating func admit(
        _ peer: PeerID, moveThrottle: Throttle, chatThrottle: Throttle, budget: MessageBudget = RoomConfiguration().messageBudget
    ) -> (player: PlayerRef, isNew: Bool) {
        if let existing = members[peer.identity] { return (existing.player, false) }
        let player = PlayerRef(id: peer.identity, name: claim(peer.displayName, for: peer.identity))
        members[peer.identity] = Member(
            player: player, peer: peer, order: nextOrder, moveThrottle: moveThrottle, chatThrottle: chatThrottle, budget: budget)
        nextOrder += 1
        return (player, true)
    }

    /// Removes the player `id`, freeing its name.
    package mutating func remove(_ id: UUID) -> Member? {
        guard let member = members.removeValue(forKey: id) else { return nil }
        release(member.player.name, of: id)
        return member
    }

    /// Gives player `id` a unique form of `name`; nil when it is not a player or the name is
    /// already its own.
    /// - Throws: ``GameError/Code/invalidName`` for a name that breaks
    ///   ``Rooms/RoomProtocol/checkName(_:)``.
    package mutating func rename(_ id: UUID, to name: String) throws(GameError) -> (previous: String, player: PlayerRef)? {
        try RoomProtocol.checkName(name)
        guard let member = members[id], member.player.name != name else { return nil }
        release(member.player.name, of: id)
        let player = PlayerRef(id: id, name: claim(name, for: id))
        members[id]?.player = player
        return (member.player.name, player)
    }

    /// Runs `body` on the member `id`; nil when there is none.
    @inlinable package mutating func update<Result>(_ id: UUID, _ body: (inout Member) -> Result) -> Result? {
        guard let index = members.index(forKey: id) else { return nil }
        return body(&members.values[index])  // one hash look-up, mutated in place
    }

    /// Up to `limit` players, in join order.
    package func some(_ limit: Int) -> [PlayerRef] {
        guard limit > 0 else { return [] }
        if members.count <= limit { return members.values.sorted { $0.order < $1.order }.map(\.player) }
        return members.values.prefix(limit).sorted { $0.order < $1.order }.map(\.player)
    }

    /// `name`, or its first free numbered form, now owned by `id`.
    private mutating func claim(_ name: String, for id: UUID) -> String {
        let folded = Self.fold(name)
        if owners[folded] == nil || owners[folded] == id {
            owners[folded] = id
            return name
        }
        var suffix = nextSuffix[folded] ?? 2
        while true {
            let candidate = Self.numbered(name, suffix)
            suffix += 1
            if owners[Self.fold(candidate)] == nil {
                owners[Self.fold(candidate)] = id
                nextSuffix[folded] = suffix
                return candidate
            }
        }
    }

    private mutating func release(_ name: String, of id: UUID) {
        let folded = Self.fold(name)
        if owners[folded] == id { owners[folded] = nil }
    }

    /// "NAME (N)", with NAME shortened until the whole fits a display name.
    package static func numbered(_ name: String, _ number: Int) -> String {
        let suffix = " (\(number))"
        var base = Substring(name)
        while !base.isEmpty, base.utf8.count + suffix.utf8.count > PeerID.maximumDisplayNameBytes {
            base = base.dropLast()
        }
        while let last = base.last, last.isWhitespace { base = base.dropLast() }
        return String(base) + suffix
    }

    /// The key names are compared by: their confusable skeleton (Unicode TR39), so that names
    /// that look alike (a Cyrillic "а" for a Latin "a", "ALICE" for "alice") are the same name.
    package static func fold(_ name: String) -> String {
        ConfusableSkeleton.of(name)
    }
}
