/// One broadcast item of a ``HistoryBatch``, encoded as `{"type": TYPE, "body": MESSAGE}` with
/// the type string of the message it carries.
public enum HistoryItem: Sendable, Hashable, Codable {
    /// A judged guess.
    case verdict(JudgedGuess)
    /// A chat line.
    case chat(RelayedChat)
    /// Someone joined.
    case joined(PlayerJoined)
    /// Someone left.
    case left(PlayerLeft)
    /// Someone's link dropped; their seat is held.
    case away(PlayerAway)
    /// Someone who was away is back.
    case back(PlayerBack)
    /// Someone took another name.
    case renamed(PlayerRenamed)
    /// A round ended with its reveal.
    case roundWon(RoundWon)
    /// A round started.
    case roundStarted(RoundStarted)
    /// The top of the scoreboard.
    case scoreboard(ScoreboardUpdate)
    /// An item of a type this program does not know, from a newer host; receivers skip it.
    case unknown(type: String)

    /// The broadcast sequence number, or nil for an unknown item.
    public var sequence: UInt64? {
        switch self {
        case .verdict(let item): item.sequence
        case .chat(let item): item.sequence
        case .joined(let item): item.sequence
        case .left(let item): item.sequence
        case .away(let item): item.sequence
        case .back(let item): item.sequence
        case .renamed(let item): item.sequence
        case .roundWon(let item): item.sequence
        case .roundStarted(let item): item.sequence
        case .scoreboard(let item): item.sequence
        case .unknown: nil
        }
    }

    /// The type string of the message carried.
    public var type: String {
        switch self {
        case .verdict: JudgedGuess.messageType
        case .chat: RelayedChat.messageType
        case .joined: PlayerJoined.messageType
        case .left: PlayerLeft.messageType
        case .away: PlayerAway.messageType
        case .back: PlayerBack.messageType
        case .renamed: PlayerRenamed.messageType
        case .roundWon: RoundWon.messageType
        case .roundStarted: RoundStarted.messageType
        case .scoreboard: ScoreboardUpdate.messageType
        case .unknown(let type): type
        }
    }

    private enum CodingKeys: String, CodingKey { case type, body }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case JudgedGuess.messageType: self = .verdict(try container.decode(JudgedGuess.self, forKey: .body))
        case RelayedChat.messageType: self = .chat(try container.decode(RelayedChat.self, forKey: .body))
        case PlayerJoined.messageType: self = .joined(try container.decode(PlayerJoined.self, forKey: .body))
        case PlayerLeft.messageType: self = .left(try container.decode(PlayerLeft.self, forKey: .body))
        case PlayerAway.messageType: self = .away(try container.decode(PlayerAway.self, forKey: .body))
        case PlayerBack.messageType: self = .back(try container.decode(PlayerBack.self, forKey: .body))
        case PlayerRenamed.messageType: self = .renamed(try container.decode(PlayerRenamed.self, forKey: .body))
        case RoundWon.messageType: self = .roundWon(try container.decode(RoundWon.self, forKey: .body))
        case RoundStarted.messageType: self = .roundStarted(try container.decode(RoundStarted.self, forKey: .body))
        case ScoreboardUpdate.messageType: self = .scoreboard(try container.decode(ScoreboardUpdate.self, forKey: .body))
        default: self = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .verdict(let item): try container.encode(item, forKey: .body)
        case .chat(let item): try container.encode(item, forKey: .body)
        case .joined(let item): try container.encode(item, forKey: .body)
        case .left(let item): try container.encode(item, forKey: .body)
        case .away(let item): try container.encode(item, forKey: .body)
        case .back(let item): try container.encode(item, forKey: .body)
        case .renamed(let item): try container.encode(item, forKey: .body)
        case .roundWon(let item): try container.encode(item, forKey: .body)
        case .roundStarted(let item): try container.encode(item, forKey: .body)
        case .scoreboard(let item): try container.encode(item, forKey: .body)
        case .unknown: break
        }
    }
}

extension HistoryItem: SequencedItem {}
