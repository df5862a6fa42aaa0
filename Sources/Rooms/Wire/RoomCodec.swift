import Foundation

/// How a game's messages look on the wire: its moves, and what its host sends
/// (``RoomHostMessage``). The room's own messages (chat, renames, errors, the items about
/// players) are the same in every game.
///
/// A game written on the room layer takes ``StandardRoomCodec``, the room protocol with the
/// game's message prefix (docs/PROTOCOL.md, "rooms of other games"), and needs nothing here.
/// A game whose wire is older than the room layer — guess-the-number — gives its own, so that
/// players of earlier releases still read it byte for byte.
public protocol RoomCodec<Rules>: Sendable {
    /// The game.
    associatedtype Rules: GameRules

    /// The message type of a move (guest → host).
    static var moveType: String { get }
    /// A move's payload.
    static func encode(move: Rules.Move) throws -> Data
    /// The move in a payload of ``moveType``.
    static func decodeMove(from payload: Data) throws -> Rules.Move

    /// The message type of a tick's broadcast.
    static var batchType: String { get }
    /// The message type of a welcome (what its payload limit is measured against).
    static var welcomeType: String { get }
    /// One numbered item's JSON, as a batch lists it.
    static func encode(item: RoomItem<Rules>) throws -> [UInt8]
    /// What closes a batch payload after its items' `]` (`}` or counts, then `}`): `first` for the
    /// first payload of a tick's batch, which carries its counts.
    static func batchClosing(of batch: RoomBatch<Rules>, first: Bool) -> [UInt8]
    /// Whether a replay is sent as batches (split as they are), rather than as one message of its
    /// own that a welcome replaces when it does not fit a frame.
    static var replaysAsBatches: Bool { get }
    /// Whether each player is sent the game as they see it after a tick that changed it (a game
    /// whose players see everything in the broadcast needs none).
    static var sendsViews: Bool { get }

    /// A message for one guest (a welcome, a view, a reply, a refusal, a replay when not
    /// ``replaysAsBatches``) as its type and payload.
    static func encode(_ message: RoomHostMessage<Rules>) throws -> (type: String, payload: Data)
    /// A welcome's type and payload within `payloadLimit` bytes, leaving out what a newcomer can
    /// do without (some players, scores) when the whole would not fit.
    static func encode(_ welcome: RoomWelcome<Rules>, within payloadLimit: Int) throws -> (type: String, payload: Data)
    /// The welcomes of one tick, in order, each within `payloadLimit` bytes (a game whose
    /// players all see the same may encode what they share once).
    static func encode(welcomes: [RoomWelcome<Rules>], within payloadLimit: Int) throws -> [(type: String, payload: Data)]
    /// The host's message of type `type`, or nil when the type is not one of this game's.
    /// - Throws: when the payload is not a message of that type.
    static func decode(type: String, payload: Data) throws -> RoomHostMessage<Rules>?
}

extension RoomCodec {
    public static func encode(welcomes: [RoomWelcome<Rules>], within payloadLimit: Int) throws -> [(type: String, payload: Data)] {
        try welcomes.map { try encode($0, within: payloadLimit) }
    }

    public static func encode(_ welcome: RoomWelcome<Rules>, within payloadLimit: Int) throws -> (type: String, payload: Data) {
        var welcome = welcome
        let everyone = welcome.playerCount ?? welcome.players.count
        var (type, payload) = try encode(.welcome(welcome))
        while payload.count > payloadLimit, !welcome.players.isEmpty || !welcome.scores.isEmpty {
            if !welcome.players.isEmpty {
                welcome.players.removeLast(max(1, welcome.players.count / 2))
                welcome.playerCount = everyone
            } else {
                welcome.scores.removeLast(max(1, welcome.scores.count / 2))
            }
            payload = try encode(.welcome(welcome)).payload
        }
        return (type, payload)
    }
}

/// The room protocol of a game written on the room layer: every message type is the game's
/// ``GameKind/messagePrefix`` and a name (`tictactoe.v1.move`), every body the JSON of the
/// room's types (docs/PROTOCOL.md, "rooms of other games").
public enum StandardRoomCodec<Rules: GameRules>: RoomCodec {
    public static var moveType: String { RoomMove<Rules>.messageType }

    public static func encode(move: Rules.Move) throws -> Data {
        try JSONEncoder().encode(RoomMove<Rules>(move))
    }

    public static func decodeMove(from payload: Data) throws -> Rules.Move {
        try JSONDecoder().decode(RoomMove<Rules>.self, from: payload).move
    }

    public static var batchType: String { RoomBatch<Rules>.messageType }
    public static var welcomeType: String { RoomWelcome<Rules>.messageType }

    public static func encode(item: RoomItem<Rules>) throws -> [UInt8] {
        Array(try JSONEncoder().encode(item))
    }

    public static func batchClosing(of batch: RoomBatch<Rules>, first: Bool) -> [UInt8] {
        Array(((first ? batch.countMembers : "") + "}").utf8)
    }

    public static var replaysAsBatches: Bool { true }
    public static var sendsViews: Bool { true }

    public static func encode(_ message: RoomHostMessage<Rules>) throws -> (type: String, payload: Data) {
        let encoder = JSONEncoder()
        switch message {
        case .welcome(let welcome): return (welcomeType, try encoder.encode(welcome))
        case .batch(let batch): return (RoomBatch<Rules>.messageType, try encoder.encode(batch))
        case .replay(let after, let items): return (RoomBatch<Rules>.messageType, try encoder.encode(RoomBatch(replaying: items, after: after)))
        case .view(let view): return (RoomViewUpdate<Rules>.messageType, try encoder.encode(view))
        case .reply(let event, _): return (RoomReply<Rules>.messageType, try encoder.encode(RoomReply<Rules>(event)))
        case .refused(let refusal): return (RoomRefusal<Rules>.messageType, try encoder.encode(RoomRefusal<Rules>(refusal)))
        }
    }

    public static func decode(type: String, payload: Data) throws -> RoomHostMessage<Rules>? {
        let decoder = JSONDecoder()
        switch type {
        case RoomWelcome<Rules>.messageType: return .welcome(try decoder.decode(RoomWelcome<Rules>.self, from: payload))
        case RoomBatch<Rules>.messageType: return .batch(try decoder.decode(RoomBatch<Rules>.self, from: payload))
        case RoomViewUpdate<Rules>.messageType: return .view(try decoder.decode(RoomViewUpdate<Rules>.self, from: payload))
        case RoomReply<Rules>.messageType: return .reply(try decoder.decode(RoomReply<Rules>.self, from: payload).event, sequence: nil)
        case RoomRefusal<Rules>.messageType: return .refused(try decoder.decode(RoomRefusal<Rules>.self, from: payload).refusal)
        default: return nil
        }
    }
}
