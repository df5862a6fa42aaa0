import Foundation
import Multipeer

/// What a guest's presenter is told, in the order it happened: one typed stream for everything
/// a room shows, whatever the game.
public enum RoomGuestEvent<Rules: GameRules>: Sendable {
    /// The host welcomed this guest (again, after a drop that lost too much).
    case welcomed(RoomWelcome<Rules>)
    /// Something happened in the room or the game, not seen before.
    case item(RoomItem<Rules>)
    /// The broadcast copy of a reply this guest was shown already (``reply(_:)``): to keep,
    /// not to show again.
    case replyCopy(RoomItem<Rules>)
    /// The game as this guest now sees it.
    case view(Rules.View)
    /// What this guest's move told it. A reply the host numbered as the move's broadcast item
    /// comes in the host's order: after the items numbered before it.
    case reply(Rules.Event)
    /// Why the rules refused this guest's move.
    case refused(MoveRefusal)
    /// The host refused something else (a chat line too long, too fast).
    case error(GameError)
    /// Game events the host counted rather than listed in a busy tick.
    case omitted(events: Int)
    /// What this guest missed while away has arrived: the items that follow, of which `missed`
    /// are things a player reads (``RoomItem/isNews(to:)``).
    case caughtUp(missed: Int)
    /// The host left, or the link to it was lost.
    case hostLeft(PeerStateChange)
}

extension RoomItem {
    /// Whether it is something that happened that the player `you` did not do itself: an item a
    /// player's screen lists, not a score update (the scores show those), a turn clock's warning
    /// (stale once missed) nor an unknown item, nor the player's own chat line, absence or
    /// return.
    public func isNews(to you: UUID?) -> Bool {
        switch self {
        case .scores, .unknown: false
        case .chat(let chat): chat.from.id != you
        case .turnClock: false  // a moment's warning, stale once missed
        case .away(let away): away.player.id != you
        case .back(let back): back.player.id != you
        case .game(_, let event): Rules.isNews(event)
        case .joined, .left, .renamed: true
        }
    }
}
