import GuessnumGame
import Multipeer

/// A player's place in one game, whatever the game: what the list of games hands the events
/// to while the player is in it.
///
/// Made before the invitation goes out, so that nothing the host sends right after letting
/// the player in is missed.
protocol GuestSeat: AnyObject, Sendable {
    /// What the invitation asks to play, and after a drop what the player has.
    func joinRequest(resumeAfter: UInt64?) -> JoinRequest
    /// Sits down at `host`'s game, listed as `name`; `rejoin` gets back in after a drop.
    func start(host: PeerID, listedAs name: String, rejoin: Reconnection.Rejoin?) async
    /// What the player does with one event while in the game.
    func handle(_ event: AppEvent) async -> CommandFlow
    /// Stops following the game (the session stays up).
    func stop()
    /// How the seat was given up (meaningful once the REPL has left it).
    var ending: SeatEnding { get }
    /// When the host ended the seat (a kick, the game's end, a goodbye), as its word arrived;
    /// nil when the player left, or is still in.
    var endedAt: ContinuousClock.Instant? { get }
}
