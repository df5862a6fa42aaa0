import Foundation
@testable import GuessnumGame
import Multipeer
@testable import Rooms
import TicTacToe

/// What a hostile host can send a guest, in sequence: each line of the input is one message,
/// its first byte choosing the type, taken in as the program's players take it — by the room
/// guest's state of guess-the-number (read by its codec, as an older host sends it) and told to
/// its presenter, and by a tic-tac-toe room guest's state. Nothing a host sends may crash a guest,
/// or grow what it holds past its bounds.
enum GuestFuzzing {
    static func run(_ data: Data) {
        var guess = RoomGuestState<GuessRules>()
        var presenter = GuessPresenter()
        var room = RoomGuestState<TicTacToeRules>()
        for line in data.split(separator: UInt8(ascii: "\n")).prefix(64) {
            guard let kind = line.first else { continue }
            let body = Data(line.dropFirst())
            switch kind % 8 {
            case 0: take(WelcomeMessage.messageType, body, into: &guess, telling: &presenter)
            case 1: take(HistoryBatch.messageType, body, into: &guess, telling: &presenter)
            case 2: take(ReplayMessage.messageType, body, into: &guess, telling: &presenter)
            case 3: take(JudgedGuess.messageType, body, into: &guess, telling: &presenter)
            case 4:
                if let message = decode(RoomWelcome<TicTacToeRules>.self, body) { _ = room.take(.welcome(message), from: host) }
            case 5:
                if let message = decode(RoomBatch<TicTacToeRules>.self, body) {
                    _ = room.take(.batch(message), from: host)
                    _ = room.missingToAskFor(at: .now)
                }
            case 6: if let message = decode(RoomViewUpdate<TicTacToeRules>.self, body) { _ = room.take(.view(message), from: host) }
            default:
                guess.holdBroadcasts()
                tell(guess.releaseHeldBatches(), to: &presenter)
            }
            // What a player may ask to see of what was taken in: /history and /score.
            _ = presenter.history(of: [], to: .anyone)
            _ = presenter.scores(of: [], to: .anyone)
            precondition(room.held.count <= RoomGuestState<TicTacToeRules>.heldLimit, "a room guest holds at most its limit")
            precondition(room.gameEvents.count <= RoomGuestState<TicTacToeRules>.eventLimit, "a room guest keeps at most its limit of events")
            precondition(guess.held.count <= RoomGuestState<GuessRules>.heldLimit, "a guest holds at most its limit")
            precondition((guess.heldBatches?.count ?? 0) <= RoomGuestState<GuessRules>.heldBatchLimit, "a guest holds at most its limit of broadcasts")
        }
    }

    /// Takes `body` as guess-the-number's message of `type`, as its guest does: read by the
    /// game's codec, taken in by the room's state, and what that tells shown by the presenter.
    private static func take(_ type: String, _ body: Data, into guess: inout RoomGuestState<GuessRules>, telling presenter: inout GuessPresenter) {
        guard let message = try? GuessCodec.decode(type: type, payload: body) else { return }
        tell(guess.take(message, from: host), to: &presenter)
    }

    /// Shows `events` with `presenter`, as a player's seat does (the lines are made, not printed).
    private static func tell(_ events: [RoomGuestEvent<GuessRules>], to presenter: inout GuessPresenter) {
        for event in events {
            switch event {
            case .welcomed(let welcome): _ = presenter.lines(forWelcome: welcome, to: .anyone)
            case .item(.game(_, let event)), .reply(let event): _ = presenter.lines(for: event, to: .anyone)
            case .item(.renamed(let renamed)): presenter.renamed(renamed.player)
            case .view(let view): _ = presenter.lines(for: view, before: nil, to: .anyone)
            default: break
            }
        }
    }

    private static let host: PeerID = {
        do { return try PeerID(displayName: "host") } catch { preconditionFailure("“host” is a valid name") }
    }()

    private static func decode<Message: Decodable>(_ type: Message.Type, _ data: Data) -> Message? {
        try? JSONDecoder().decode(type, from: data)
    }

    /// Seeds: a welcome and a few batches for each kind of guest, numbered with a gap; and the
    /// same at the end of the numbers.
    static func seeds() throws -> [[UInt8]] {
        try [10, UInt64.max - 3].flatMap(seeds(from:))
    }

    private static func seeds(from first: UInt64) throws -> [[UInt8]] {
        let bob = PlayerRef(id: UUID(uuidString: "6F1C2B8E-0D3A-4A57-9C1E-2B7D4F6A8E10")!, name: "bob")
        func line(_ kind: UInt8, _ value: some Encodable) throws -> [UInt8] { [kind] + Array(try JSONEncoder().encode(value)) }
        let chat = { (offset: UInt64) in RelayedChat(sequence: first + offset, from: bob, text: "hi") }
        let state = GameState(
            round: 1, range: .standard, commitment: Commitment(secret: 42, salt: Salt(bytes: Array(repeating: 7, count: 32))!), history: [],
            earlierJudgements: 0, lastSequence: first, players: [bob], playerCount: 1, scoreboard: [], reveal: nil)
        let guess = [
            try line(0, WelcomeMessage(you: bob, game: state)),
            try line(1, HistoryBatch(items: [.chat(chat(2))])),
            try line(3, JudgedGuess(sequence: first + 3, round: 1, judgement: Judgement(player: bob, guess: 5, verdict: .tooLow))),
            try line(1, HistoryBatch(items: [.chat(chat(1))])),
        ]
        let rules = TicTacToeRules()
        let welcome = RoomWelcome<TicTacToeRules>(
            you: bob, round: 1, lastSequence: first, players: [bob], scores: [], seatHoldSeconds: 60, view: rules.view(for: bob))
        let room = [
            try line(4, welcome),
            try line(5, RoomBatch<TicTacToeRules>(items: [.chat(chat(3))])),
            try line(5, RoomBatch<TicTacToeRules>(items: [.chat(chat(1)), .chat(chat(2))])),
            try line(6, RoomViewUpdate<TicTacToeRules>(lastSequence: first + 3, view: rules.view(for: bob))),
        ]
        let newline = [UInt8(ascii: "\n")]
        return [guess.joined(separator: newline).map { $0 }, room.joined(separator: newline).map { $0 }]
    }
}
