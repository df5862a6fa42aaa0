import Foundation

/// One numbered broadcast item of a room: something about the room (a join, a chat line…), the
/// scores after a round, or an event of its game.
///
/// On the wire an item is `{"type": TYPE, "body": BODY}`, as guess-the-number's history items
/// are: the room's own items keep the room protocol's types (`guessnum.v1.player-joined`…,
/// their bodies carrying their sequence numbers); the scores are `PREFIX + "scores"` and a game
/// event `PREFIX + "event"` with `{"sequence": N, "event": EVENT}`, where PREFIX is the game's
/// ``GameKind/messagePrefix``. An item of a type this program does not know decodes as
/// ``unknown(type:)`` and is skipped, so newer hosts may add items.
public enum RoomItem<Rules: GameRules>: Sendable, Hashable, Codable, SequencedItem {
    /// Someone joined.
    case joined(PlayerJoined)
    /// Someone left (or their held seat's time ran out).
    case left(PlayerLeft)
    /// Someone's link dropped; their seat is held.
    case away(PlayerAway)
    /// Someone who was away is back.
    case back(PlayerBack)
    /// Someone took another name.
    case renamed(PlayerRenamed)
    /// A chat line.
    case chat(RelayedChat)
    /// A player the game waits for has little time left.
    case turnClock(TurnClockNotice)
    /// The scores after a round ended.
    case scores(RoomScores)
    /// Something that happened in the game.
    case game(sequence: UInt64, event: Rules.Event)
    /// An item of a type this program does not know, from a newer host.
    case unknown(type: String)

    /// The item's sequence number, or nil for an unknown item.
    public var sequence: UInt64? {
        switch self {
        case .joined(let item): item.sequence
        case .left(let item): item.sequence
        case .away(let item): item.sequence
        case .back(let item): item.sequence
        case .renamed(let item): item.sequence
        case .chat(let item): item.sequence
        case .turnClock(let item): item.sequence
        case .scores(let item): item.sequence
        case .game(let sequence, _): sequence
        case .unknown: nil
        }
    }

    /// The wire type of a game event item.
    public static var eventType: String { Rules.kind.messagePrefix + "event" }
    /// The wire type of a scores item.
    public static var scoresType: String { Rules.kind.messagePrefix + "scores" }

    private enum Keys: String, CodingKey { case type, body }
    private struct EventBody: Codable {
        var sequence: UInt64
        var event: Rules.Event
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case PlayerJoined.messageType: self = .joined(try container.decode(PlayerJoined.self, forKey: .body))
        case PlayerLeft.messageType: self = .left(try container.decode(PlayerLeft.self, forKey: .body))
        case PlayerAway.messageType: self = .away(try container.decode(PlayerAway.self, forKey: .body))
        case PlayerBack.messageType: self = .back(try container.decode(PlayerBack.self, forKey: .body))
        case PlayerRenamed.messageType: self = .renamed(try container.decode(PlayerRenamed.self, forKey: .body))
        case RelayedChat.messageType: self = .chat(try container.decode(RelayedChat.self, forKey: .body))
        case TurnClockNotice.messageType: self = .turnClock(try container.decode(TurnClockNotice.self, forKey: .body))
        case Self.scoresType: self = .scores(try container.decode(RoomScores.self, forKey: .body))
        case Self.eventType:
            let body = try container.decode(EventBody.self, forKey: .body)
            self = .game(sequence: body.sequence, event: body.event)
        default: self = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .joined(let item): try container.encode(PlayerJoined.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .left(let item): try container.encode(PlayerLeft.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .away(let item): try container.encode(PlayerAway.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .back(let item): try container.encode(PlayerBack.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .renamed(let item): try container.encode(PlayerRenamed.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .chat(let item): try container.encode(RelayedChat.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .turnClock(let item): try container.encode(TurnClockNotice.messageType, forKey: .type); try container.encode(item, forKey: .body)
        case .scores(let item): try container.encode(Self.scoresType, forKey: .type); try container.encode(item, forKey: .body)
        case .game(let sequence, let event):
            try container.encode(Self.eventType, forKey: .type)
            try container.encode(EventBody(sequence: sequence, event: event), forKey: .body)
        case .unknown(let type): try container.encode(type, forKey: .type)
        }
    }
}

/// The room's scores after a round: each player's wins, most first.
public struct RoomScores: Sendable, Hashable, Codable {
    /// One player's wins.
    public struct Entry: Sendable, Hashable, Codable {
        /// The player.
        public var player: PlayerRef
        /// The rounds they won.
        public var wins: Int

        /// An entry of `player` with `wins`.
        public init(player: PlayerRef, wins: Int) {
            self.player = player
            self.wins = wins
        }
    }

    /// The item's sequence number.
    public var sequence: UInt64
    /// The round that just ended.
    public var round: Int
    /// Who won it (none: a draw).
    public var winners: [PlayerRef]
    /// The best entries, most wins first.
    public var entries: [Entry]

    /// Scores after `round`, won by `winners`.
    public init(sequence: UInt64, round: Int, winners: [PlayerRef], entries: [Entry]) {
        self.sequence = sequence
        self.round = round
        self.winners = winners
        self.entries = entries
    }
}
