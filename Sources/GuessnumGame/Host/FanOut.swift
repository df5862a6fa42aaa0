import Foundation

/// What the host broadcasts, gathered between ticks and sent as few ``HistoryBatch`` messages
/// as fit a frame: one encoding and one send to all recipients per tick, however many events
/// happened and however many players read them.
///
/// Beyond ``maximumGuessLinesPerTick`` guess lines in one tick, further guess lines are only
/// counted (``HistoryBatch/omittedGuesses``), and so are joins and leaves beyond a cap of the
/// same size (``HistoryBatch/omittedJoins``, ``HistoryBatch/omittedLeaves``, with the player
/// count); every other item is always sent.
struct FanOut: Sendable {
    /// The most guess lines listed this tick; the host lowers it in big games (see
    /// ``GameConfiguration/listedLinesPerTick(players:interval:)``). Joins and leaves have a
    /// cap of the same size.
    var maximumGuessLinesPerTick: Int
    private(set) var pending: [HistoryItem] = []
    private var guessLines = 0
    private var membershipLines = 0
    private var omitted = 0
    private var omittedJoins = 0
    private var omittedLeaves = 0
    private var playerCount: Int?

    init(maximumGuessLinesPerTick: Int) {
        self.maximumGuessLinesPerTick = maximumGuessLinesPerTick
    }

    var isEmpty: Bool { pending.isEmpty && omitted == 0 && omittedJoins == 0 && omittedLeaves == 0 }

    /// Adds `item` to the next batch, or only counts it when it is a guess line, a join or a
    /// leave beyond this tick's cap.
    mutating func enqueue(_ item: HistoryItem) {
        switch item {
        case .verdict:
            guard guessLines < maximumGuessLinesPerTick else {
                omitted += 1
                return
            }
            guessLines += 1
        case .joined(let joined):
            guard listMembershipChange(playerCount: joined.playerCount) else {
                omittedJoins += 1
                return
            }
        case .left(let left):
            guard listMembershipChange(playerCount: left.playerCount) else {
                omittedLeaves += 1
                return
            }
        case .away, .back:
            // Under the same cap as joins and leaves; beyond it they are not listed (a guest
            // whose list misses one sees the player's state in the next welcome).
            guard membershipLines < maximumGuessLinesPerTick else { return }
            membershipLines += 1
        default:
            break
        }
        pending.append(item)
    }

    /// Notes the player count after a join or leave; true when this tick still lists it.
    private mutating func listMembershipChange(playerCount: Int) -> Bool {
        self.playerCount = playerCount
        guard membershipLines < maximumGuessLinesPerTick else { return false }
        membershipLines += 1
        return true
    }

    /// The batch gathered since the last call, or nil when nothing happened.
    mutating func take() -> HistoryBatch? {
        guard !isEmpty else { return nil }
        defer {
            pending = []
            guessLines = 0
            membershipLines = 0
            omitted = 0
            omittedJoins = 0
            omittedLeaves = 0
            playerCount = nil
        }
        let countsMembers = omittedJoins > 0 || omittedLeaves > 0
        return HistoryBatch(items: pending, omittedGuesses: omitted, omittedJoins: omittedJoins, omittedLeaves: omittedLeaves,
                            playerCount: countsMembers ? playerCount : nil)
    }

    /// `batch` as one or more JSON payloads of at most `payloadLimit` bytes and
    /// ``Rooms/BatchPayloads/maximumItems`` items each, in order (a single item larger than that is
    /// left alone, for the session to refuse); the counts travel in the first. Each item is
    /// encoded once; verdict lines, nearly all of a busy game's items, take the hand-written path
    /// (``HotPathJSON``).
    static func encode(_ batch: HistoryBatch, payloadLimit: Int) throws -> [Data] {
        let encoder = JSONEncoder()
        let items = try batch.items.map { try json(of: $0, encoder: encoder) }
        return BatchPayloads.split(items, payloadLimit: payloadLimit) { first in
            first ? batch.closing : HistoryBatch(items: []).closing
        }
    }

    static func json(of item: HistoryItem, encoder: JSONEncoder) throws -> [UInt8] {
        guard case .verdict(let line) = item else { return Array(try encoder.encode(item)) }
        var bytes = Array(#"{"type":""#.utf8)
        bytes.append(contentsOf: JudgedGuess.messageType.utf8)
        bytes.append(contentsOf: #"","body":"#.utf8)
        HotPathJSON.append(line, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

extension HistoryBatch {
    /// What closes a payload of this batch after its items' `]`: its counts, then `}`.
    var closing: [UInt8] {
        var closing = Array(#","omittedGuesses":"#.utf8)
        HotPathJSON.appendNumber(omittedGuesses, to: &closing)
        for (key, value) in [("omittedJoins", omittedJoins), ("omittedLeaves", omittedLeaves)] where value > 0 {
            closing.append(contentsOf: ",\"\(key)\":".utf8)
            HotPathJSON.appendNumber(value, to: &closing)
        }
        if let playerCount {
            closing.append(contentsOf: #","playerCount":"#.utf8)
            HotPathJSON.appendNumber(playerCount, to: &closing)
        }
        closing.append(UInt8(ascii: "}"))
        return closing
    }
}
