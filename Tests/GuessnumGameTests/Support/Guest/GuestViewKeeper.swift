import EventBus
import Rooms
import Synchronization
@testable import GuessnumGame

/// Keeps guess-the-number's view of the game beside a room guest's (see ``GuestView``), and
/// posts what the guest was told on the game's event bus and to its stream of updates, in order.
final class GuestViewKeeper: RoomGuestObserver, Sendable {
    typealias Rules = GuessRules

    /// The view, changed as the room guest takes in each message.
    let view = Watched(GuestView())
    private let bus: EventBus
    private let continuation: AsyncStream<GuestGameEvent>.Continuation
    /// What was kept and not posted yet, oldest first.
    private let unposted = Mutex<[GuestGameEvent]>([])

    init(bus: EventBus, continuation: AsyncStream<GuestGameEvent>.Continuation) {
        self.bus = bus
        self.continuation = continuation
    }

    func keep(_ told: [RoomGuestEvent<GuessRules>], in room: RoomGuestState<GuessRules>) {
        let posts = view.withLock { $0.keep(told, in: room) }
        unposted.withLock { $0.append(contentsOf: posts) }
    }

    func report() {
        let posts = unposted.withLock { unposted in
            defer { unposted = [] }
            return unposted
        }
        for event in posts {
            event.post(on: bus)
            continuation.yield(event)
        }
    }
}
