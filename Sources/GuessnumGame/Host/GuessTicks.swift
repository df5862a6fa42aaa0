import EventBus
import Foundation
import Rooms
import Synchronization

/// What a ``GameMaster`` does with each tick of its room: hands it to its store, if any (under
/// the room's lock, in order), and posts everything on the game's bus.
final class GuessTicks: RoomObserver {
    typealias Rules = GuessRules

    private let events: EventBus
    private let store: (any RoomObserver<GuessRules>)?
    /// Whether the resumed round was announced.
    private let announced = Mutex(false)

    /// Whether the room's activity stream still tells a screen everything (see ``GameMaster``'s `showsActivity`).
    let leavesActivity: Bool

    init(events: EventBus, store: (any RoomObserver<GuessRules>)?, leavesActivity: Bool) {
        self.events = events
        self.store = store
        self.leavesActivity = leavesActivity
    }

    /// Whether the resumed round is still to be announced; afterwards it is not.
    func announce() -> Bool {
        announced.withLock { announced in
            defer { announced = true }
            return !announced
        }
    }

    func keep(_ items: [RoomItem<GuessRules>], of table: RoomTable<GuessRules>) {
        store?.keep(items, of: table)
    }

    func report(_ items: [RoomItem<GuessRules>], passwordRefusals: [PasswordRefusals]) {
        for item in items { item.historyItem.post(on: events) }
        for refusals in passwordRefusals { events.post(.passwordRefusals, refusals) }
    }
}
