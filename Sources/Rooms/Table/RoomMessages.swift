/// `PREFIX + "welcome"` — what a newcomer (or a player who missed too much) needs to play
/// (host → one guest): who they are here, the room, and the game as they see it.
public struct RoomWelcome<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "welcome" }

    /// The guest, under its name unique in the room ("bob (2)").
    public var you: PlayerRef
    /// The current round's number (0 before the first).
    public var round: Int
    /// The sequence number of the last broadcast item this welcome includes.
    public var lastSequence: UInt64
    /// Everyone in the room, in join order; in a big room only the first ones (see
    /// ``playerCount``).
    public var players: [PlayerRef]
    /// How many players are in the room, when ``players`` does not list them all; absent when it
    /// does.
    public var playerCount: Int?
    /// The best scores so far, most wins first.
    public var scores: [RoomScores.Entry]
    /// How long, in seconds, the host keeps a dropped player's seat; absent when it keeps none.
    public var seatHoldSeconds: Int?
    /// The game as `you` see it.
    public var view: Rules.View

    /// A welcome; see the properties.
    public init(
        you: PlayerRef, round: Int, lastSequence: UInt64, players: [PlayerRef], playerCount: Int? = nil, scores: [RoomScores.Entry],
        seatHoldSeconds: Int?, view: Rules.View
    ) {
        self.you = you
        self.round = round
        self.lastSequence = lastSequence
        self.players = players
        self.playerCount = playerCount
        self.scores = scores
        self.seatHoldSeconds = seatHoldSeconds
        self.view = view
    }
}

/// `PREFIX + "history"` — the room's broadcast of one tick (host → everyone), numbered items in
/// order.
///
/// A busy room lists only some of a tick's items and counts the rest (see
/// ``RoomConfiguration/listedLinesPerTick(players:interval:cap:)``): the game's commentary (a
/// guess line), joins and leaves, and players going away and coming back. Counted items keep
/// their numbers, so a batch with counts skips numbers; the counts are absent on the wire when zero.
public struct RoomBatch<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "history" }

    /// The items, in the order they happened.
    public var items: [RoomItem<Rules>]
    /// Game events of this tick counted, not listed (``GameRules/isCommentary(_:)``).
    public var omittedEvents: Int
    /// Players who joined during this tick without a ``RoomItem/joined(_:)`` item.
    public var omittedJoins: Int
    /// Players who left during this tick without a ``RoomItem/left(_:)`` item.
    public var omittedLeaves: Int
    /// Other numbered items left out: players who went away or came back.
    public var omittedOthers: Int
    /// The number of players after this tick, sent when joins or leaves were omitted.
    public var playerCount: Int?

    /// A batch of `items`, with what was counted rather than listed.
    public init(items: [RoomItem<Rules>], omittedEvents: Int = 0, omittedJoins: Int = 0, omittedLeaves: Int = 0, omittedOthers: Int = 0, playerCount: Int? = nil) {
        self.items = items
        self.omittedEvents = omittedEvents
        self.omittedJoins = omittedJoins
        self.omittedLeaves = omittedLeaves
        self.omittedOthers = omittedOthers
        self.playerCount = playerCount
    }

    /// Whether numbered items were left out, so that the batch skips their numbers.
    public var hasOmissions: Bool { omittedEvents > 0 || omittedJoins > 0 || omittedLeaves > 0 || omittedOthers > 0 }

    /// The counts as JSON members (`,"omittedEvents":2`…), those that are not zero.
    var countMembers: String {
        var members = ""
        for (key, value) in [("omittedEvents", omittedEvents), ("omittedJoins", omittedJoins), ("omittedLeaves", omittedLeaves), ("omittedOthers", omittedOthers)]
        where value > 0 {
            members += ",\"\(key)\":\(value)"
        }
        if let playerCount { members += ",\"playerCount\":\(playerCount)" }
        return members
    }

    private enum CodingKeys: String, CodingKey { case items, omittedEvents, omittedJoins, omittedLeaves, omittedOthers, playerCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([RoomItem<Rules>].self, forKey: .items)
        omittedEvents = max(0, try container.decodeIfPresent(Int.self, forKey: .omittedEvents) ?? 0)
        omittedJoins = max(0, try container.decodeIfPresent(Int.self, forKey: .omittedJoins) ?? 0)
        omittedLeaves = max(0, try container.decodeIfPresent(Int.self, forKey: .omittedLeaves) ?? 0)
        omittedOthers = max(0, try container.decodeIfPresent(Int.self, forKey: .omittedOthers) ?? 0)
        playerCount = try container.decodeIfPresent(Int.self, forKey: .playerCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        for (key, value) in [(CodingKeys.omittedEvents, omittedEvents), (.omittedJoins, omittedJoins), (.omittedLeaves, omittedLeaves), (.omittedOthers, omittedOthers)]
        where value > 0 {
            try container.encode(value, forKey: key)
        }
        try container.encodeIfPresent(playerCount, forKey: .playerCount)
    }
}

/// `PREFIX + "move"` — a player's move (guest → host).
public struct RoomMove<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "move" }

    /// The move.
    public var move: Rules.Move

    /// A message carrying `move`.
    public init(_ move: Rules.Move) {
        self.move = move
    }
}

/// `PREFIX + "reply"` — what a move told the mover alone (host → the mover), at once.
public struct RoomReply<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "reply" }

    /// The event for the mover.
    public var event: Rules.Event

    /// A reply carrying `event`.
    public init(_ event: Rules.Event) {
        self.event = event
    }
}

/// `PREFIX + "refused"` — why the rules refused a move (host → the mover), at once.
public struct RoomRefusal<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "refused" }

    /// The refusal's code and sentence.
    public var refusal: MoveRefusal

    /// A message carrying `refusal`.
    public init(_ refusal: MoveRefusal) {
        self.refusal = refusal
    }
}

/// `PREFIX + "view"` — the game as one player now sees it (host → that player), after a tick
/// that changed it; the items up to ``lastSequence`` are accounted for in it.
public struct RoomViewUpdate<Rules: GameRules>: GameMessage, Hashable {
    public static var messageType: String { Rules.kind.messagePrefix + "view" }

    /// The sequence number of the last item this view includes.
    public var lastSequence: UInt64
    /// The game as the player sees it.
    public var view: Rules.View

    /// A view as of item `lastSequence`.
    public init(lastSequence: UInt64, view: Rules.View) {
        self.lastSequence = lastSequence
        self.view = view
    }
}
