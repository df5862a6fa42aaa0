import Foundation
import Rooms

/// Guess-the-number's wire, as it was before the room layer (docs/PROTOCOL.md; pinned by the
/// tests): `guessnum.v1.guess` moves; `guessnum.v1.history` batches of typed items with
/// `omittedGuesses`; `guessnum.v1.verdict` at once to the guesser, numbered like its broadcast
/// copy; `guessnum.v1.welcome` with the game's state; `guessnum.v1.replay`; a guess out of
/// range answered with `guessnum.v1.error`; no per-player views (everyone sees the broadcast).
public enum GuessCodec: RoomCodec {
    public typealias Rules = GuessRules

    public static var moveType: String { GuessMessage.messageType }

    public static func encode(move: Int64) throws -> Data {
        HotPathJSON.payload(ofGuess: move)  // `GuessMessage`'s JSON, written without an encoder
    }

    public static func decodeMove(from payload: Data) throws -> Int64 {
        try HotPathJSON.guess(in: payload) ?? JSONDecoder().decode(GuessMessage.self, from: payload).guess
    }

    public static var batchType: String { HistoryBatch.messageType }
    public static var welcomeType: String { WelcomeMessage.messageType }

    public static func encode(item: RoomItem<GuessRules>) throws -> [UInt8] {
        // A verdict line, nearly every item of a busy game, takes the hand-written path: no encoder.
        if case .game(let sequence, .verdict(var line)) = item {
            line.sequence = sequence
            return HistoryPayloads.json(of: line)
        }
        return Array(try JSONEncoder().encode(item.historyItem))
    }

    public static func batchClosing(of batch: RoomBatch<GuessRules>, first: Bool) -> [UInt8] {
        guard first else { return HistoryBatch(items: []).closing }
        return HistoryBatch(
            items: [], omittedGuesses: batch.omittedEvents, omittedJoins: batch.omittedJoins, omittedLeaves: batch.omittedLeaves,
            playerCount: batch.playerCount
        ).closing
    }

    public static var replaysAsBatches: Bool { false }
    public static var sendsViews: Bool { false }

    public static func encode(_ message: RoomHostMessage<GuessRules>) throws -> (type: String, payload: Data) {
        // The guesser's verdict, the hot path: no encoder is made for it.
        if case .reply(.verdict(var line), let sequence) = message {
            line.sequence = sequence ?? 0
            return (JudgedGuess.messageType, HotPathJSON.payload(of: line))
        }
        let encoder = JSONEncoder()
        switch message {
        case .welcome(let welcome):
            return (welcomeType, try encoder.encode(WelcomeMessage(you: welcome.you, game: state(of: welcome))))
        case .batch(let batch):
            let items = try batch.items.map { try encode(item: $0) }
            return (HistoryBatch.messageType, BatchPayloads.split(items, payloadLimit: .max) { batchClosing(of: batch, first: $0) }[0])
        case .replay(let after, let items):
            return (ReplayMessage.messageType, try encoder.encode(ReplayMessage(after: after, items: items.map(\.historyItem))))
        case .view:
            throw NotOnTheWire(what: "a player's view")  // none is sent (``sendsViews``)
        case .reply:
            throw NotOnTheWire(what: "a reply that is not a verdict")
        case .refused(let refusal):
            return (GameErrorMessage.messageType, try encoder.encode(GameErrorMessage(.received(code: refusal.code, message: refusal.message))))
        }
    }

    /// A welcome within `payloadLimit` bytes: the game's state encoded once, the oldest
    /// judgements, then players, then scoreboard entries left out until it fits.
    public static func encode(_ welcome: RoomWelcome<GuessRules>, within payloadLimit: Int) throws -> (type: String, payload: Data) {
        (welcomeType, try WelcomeEncoder.encode(state(of: welcome), for: [welcome.you], payloadLimit: payloadLimit)[0])
    }

    /// The welcomes of one tick: the game's state, the same for all of them, encoded once and
    /// spliced into each beside its `you`.
    public static func encode(welcomes: [RoomWelcome<GuessRules>], within payloadLimit: Int) throws -> [(type: String, payload: Data)] {
        guard let first = welcomes.first else { return [] }
        return try WelcomeEncoder.encode(state(of: first), for: welcomes.map(\.you), payloadLimit: payloadLimit).map { (welcomeType, $0) }
    }

    /// The game's state a welcome carries.
    static func state(of welcome: RoomWelcome<GuessRules>) -> GameState {
        let view = welcome.view
        return GameState(
            round: view.round, range: view.range, commitment: view.commitment, history: view.history,
            earlierJudgements: view.earlierJudgements, lastSequence: welcome.lastSequence, players: welcome.players,
            playerCount: welcome.playerCount ?? welcome.players.count, scoreboard: view.scoreboard, reveal: view.reveal,
            hostChoseSecret: view.hostChoseSecret, seatHoldSeconds: welcome.seatHoldSeconds)
    }

    public static func decode(type: String, payload: Data) throws -> RoomHostMessage<GuessRules>? {
        let decoder = JSONDecoder()
        switch type {
        case WelcomeMessage.messageType:
            let welcome = try decoder.decode(WelcomeMessage.self, from: payload)
            let game = welcome.game
            let view = GuessView(
                round: game.round, range: game.range, commitment: game.commitment, history: game.history,
                earlierJudgements: game.earlierJudgements, reveal: game.reveal, hostChoseSecret: game.hostChoseSecret == true,
                scoreboard: game.scoreboard)
            return .welcome(RoomWelcome(
                you: welcome.you, round: game.round, lastSequence: game.lastSequence, players: game.players,
                playerCount: game.playerCount == game.players.count ? nil : game.playerCount,
                scores: game.scoreboard.map { RoomScores.Entry(player: $0.player, wins: $0.wins) }, seatHoldSeconds: game.seatHoldSeconds,
                view: view))
        case HistoryBatch.messageType:
            let batch = try decoder.decode(HistoryBatch.self, from: payload)
            return .batch(RoomBatch(
                items: batch.items.map(RoomItem.init), omittedEvents: max(0, batch.omittedGuesses), omittedJoins: batch.omittedJoins,
                omittedLeaves: batch.omittedLeaves, playerCount: batch.playerCount))
        case ReplayMessage.messageType:
            let replay = try decoder.decode(ReplayMessage.self, from: payload)
            return .replay(after: replay.after, items: replay.items.map(RoomItem.init))
        case JudgedGuess.messageType:
            let line = try decoder.decode(JudgedGuess.self, from: payload)
            return .reply(.verdict(line), sequence: line.sequence)
        default:
            return nil
        }
    }
}

/// A message guess-the-number's wire has no form for: its host never sends one.
struct NotOnTheWire: Error, CustomStringConvertible {
    let what: String
    var description: String { "guess-the-number's wire has no message for \(what)" }
}
