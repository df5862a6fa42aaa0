/// A game's own keeping of what its guest is told, beyond ``RoomGuest/events`` (guess-the-number
/// audits every round and keeps its history): handed over twice — under the guest's lock, to
/// be kept in order with the room, and after, to be shown.
package protocol RoomGuestObserver<Rules>: Sendable {
    associatedtype Rules: GameRules

    /// Called under the guest's lock, in order, with what one message (or the link's drop) told
    /// the guest and the room as the guest knows it after it. Keep it short and never call into
    /// the guest.
    func keep(_ told: [RoomGuestEvent<Rules>], in room: RoomGuestState<Rules>)

    /// Called after each ``keep(_:in:)``, outside the lock: show what was kept.
    func report()
}
