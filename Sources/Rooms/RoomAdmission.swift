import Foundation
import Logging
import Multipeer

/// How every room host decides an invitation, whatever the game: an inviter of another game is
/// declined with ``GameError/wrongGame(hosted:asked:)``; otherwise the host's seats decide (full,
/// removed, too many from one address), then a private room challenges for the password — all
/// but a player who is seated already (back after a drop, its seat held) and whose connection
/// proved its key (``Invitation/isIdentityProven``): it proved the password when it joined, and
/// no budget of wrong guesses keeps it out. A decline is logged.
package enum RoomAdmission {
    /// Decides `invitation` to a room of `game`. `seats` is the host's own step, under its lock:
    /// given the inviter's request, how many peers are connected from its address, and now, the
    /// seats' decision and whether the inviter is seated already (noting anything the host
    /// needs, such as a resume point).
    package static func decide(
        _ invitation: Invitation, hosting game: GameKind, session: Session, privacy: RoomPrivacy?, logger: Logger,
        seats: (_ request: JoinRequest, _ connected: Int, _ now: ContinuousClock.Instant) -> (decision: InvitationDecision, isSeated: Bool)
    ) -> InvitationDecision {
        let request = JoinRequest(context: invitation.context)
        var decision: InvitationDecision
        if request.gameAsked != game.id {
            decision = .decline(reason: GameError.wrongGame(hosted: game, asked: request.gameAsked).message)
        } else {
            let seating = seats(request, session.peerCount(fromAddress: invitation.remoteAddress), session.clock.now)
            decision = seating.decision
            let returning = seating.isSeated && invitation.isIdentityProven
            if decision == .accept, !returning, let privacy { decision = privacy.challenge(for: invitation) }
        }
        logger.turnedAway(invitation, by: decision)
        return decision
    }
}
