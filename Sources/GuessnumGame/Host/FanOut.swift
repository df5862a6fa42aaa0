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
    /// The most items one message carries before it is split.
    static let maximumItemsPerMessage = 256

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
    /// ``maximumItemsPerMessage`` items each, in order (a single item larger than that is left
    /// alone, for the session to refuse). Each item is encoded once; verdict lines, nearly all
    /// of a busy game's items, take the hand-written path (``HotPathJSON``).
    static func encode(_ batch: HistoryBatch, payloadLimit: Int) throws -> [Data] {
        let encoder = JSONEncoder()
        var payloads: [Data] = []
        var current: [UInt8] = []
        var itemsInCurrent = 0
        var counts: HistoryBatch? = batch  // the counts travel in the first payload
        let closingReserve = 120  // `],"omittedGuesses":N,…}`
        func finishCurrent() {
            if itemsInCurrent == 0 { current = Array(#"{"items":["#.utf8) }
            current.append(contentsOf: #"],"omittedGuesses":"#.utf8)
            HotPathJSON.appendNumber(counts?.omittedGuesses ?? 0, to: &current)
            if let counts {
                for (key, value) in [("omittedJoins", counts.omittedJoins), ("omittedLeaves", counts.omittedLeaves)] where value > 0 {
                    current.append(contentsOf: ",\"\(key)\":".utf8)
                    HotPathJSON.appendNumber(value, to: &current)
                }
                if let playerCount = counts.playerCount {
                    current.append(contentsOf: #","playerCount":"#.utf8)
                    HotPathJSON.appendNumber(playerCount, to: &current)
                }
            }
            current.append(UInt8(ascii: "}"))
            payloads.append(Data(current))
            counts = nil
            itemsInCurrent = 0
        }
        for item in batch.items {
            let encoded = try json(of: item, encoder: encoder)
            if itemsInCurrent > 0,
               itemsInCurrent == maximumItemsPerMessage || current.count + 1 + encoded.count + closingReserve > payloadLimit {
                finishCurrent()
            }
            if itemsInCurrent == 0 { current = Array(#"{"items":["#.utf8) } else { current.append(UInt8(ascii: ",")) }
            current.append(contentsOf: encoded)
            itemsInCurrent += 1
        }
        if itemsInCurrent > 0 || payloads.isEmpty { finishCurrent() }
        return payloads
    }

    private static func json(of item: HistoryItem, encoder: JSONEncoder) throws -> [UInt8] {
        guard case .verdict(let line) = item else { return Array(try encoder.encode(item)) }
        var bytes = Array(#"{"type":""#.utf8)
        bytes.append(contentsOf: JudgedGuess.messageType.utf8)
        bytes.append(contentsOf: #"","body":"#.utf8)
        HotPathJSON.append(line, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
