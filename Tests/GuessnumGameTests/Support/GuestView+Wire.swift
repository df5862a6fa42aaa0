import Foundation
@testable import GuessnumGame
import Multipeer

/// The guest's view fed with guess-the-number's messages as they come off the wire: each is
/// encoded, read back by the game's codec and taken in by the room's guest state first, as
/// ``GuestGame`` does.
extension GuestView {
    /// The host every message comes from.
    static let wireHost = try! PeerID(displayName: "host")

    static var heldBatchLimit: Int { RoomGuestState<GuessRules>.heldBatchLimit }
    var heldBatches: [RoomBatch<GuessRules>]? { room.heldBatches }

    mutating func apply(_ welcome: WelcomeMessage) -> [GuestGameEvent] { takeOffTheWire(welcome) }
    mutating func apply(_ batch: HistoryBatch) -> [GuestGameEvent] { takeOffTheWire(batch) }
    mutating func apply(_ replay: ReplayMessage) -> [GuestGameEvent] { takeOffTheWire(replay) }
    mutating func applyOwn(_ line: JudgedGuess) -> [GuestGameEvent] { takeOffTheWire(line) }

    /// The link to the host dropped.
    mutating func holdBatches() { room.holdBroadcasts() }

    private mutating func takeOffTheWire<Message: GameMessage>(_ message: Message) -> [GuestGameEvent] {
        let payload = try! JSONEncoder().encode(message)
        guard let decoded = try! GuessCodec.decode(type: Message.messageType, payload: payload) else { return [] }
        return take(decoded, from: Self.wireHost)
    }
}
