/// A program's eyes on a room's ticks, beyond ``RoomHost/activity``: every item numbered in a
/// tick, those the broadcast only counted included, handed over twice — under the room's lock,
/// to be kept in order (a store), and after the tick's sends, to be shown.
package protocol RoomObserver<Rules>: Sendable {
    associatedtype Rules: GameRules

    /// Called under the room's lock once per tick, in order, with the tick's items and the room
    /// after them. Keep it short and never call into the host: hand what must be kept to
    /// another thread.
    func keep(_ items: [RoomItem<Rules>], of table: RoomTable<Rules>)

    /// Called after the tick's sends, outside the lock, with the same items and the password
    /// refusals due to be told to the host.
    func report(_ items: [RoomItem<Rules>], passwordRefusals: [PasswordRefusals])

    /// Whether ``RoomHost/activity`` still tells the host's screen everything (for an observer
    /// that only keeps the room); false by default: the observer shows it.
    var leavesActivity: Bool { get }
}

extension RoomObserver {
    package var leavesActivity: Bool { false }
}
