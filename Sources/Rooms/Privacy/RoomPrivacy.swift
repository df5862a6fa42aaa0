import Foundation
import Logging
import Multipeer
import Synchronization

/// The host's side of a private room: it challenges each invitation that may join with the
/// password exchange its ``JoinRequest`` opened (``PasswordGate``), checks the answer, and
/// counts the guests turned away for the password for the host's screen
/// (``PasswordRefusalTally``).
///
/// Thread-safe. A challenge's check runs under the session's lock, so it only takes this
/// object's own locks, never the room's.
package final class RoomPrivacy: Sendable {
    /// The password exchanges and their limits.
    private let gate: Mutex<PasswordGate>
    /// Password refusals counted for the host's screen, and those ready to be told (a refusal may
    /// be decided under the session's lock, where nothing is posted).
    private let refusals = Mutex(Refusals())
    private let logger: Logger

    private struct Refusals {
        var tally = PasswordRefusalTally()
        var ready: [PasswordRefusals] = []
        /// Guests challenged for the password whose answer has not been judged, by identity,
        /// with their network and when: a guest whose password is wrong finds out first (the host
        /// cannot prove the password to it) and ends its invitation without answering.
        var challenged: [UUID: (network: String, at: ContinuousClock.Instant)] = [:]
    }

    /// The privacy of a room of `host` with `password`, counting time on `clock` (its
    /// session's), logging to `logger`.
    package init(password: GamePassword, host: UUID, clock: any SessionClock, logger: Logger) {
        gate = Mutex(PasswordGate(password: password, host: host))
        self.clock = clock
        self.logger = logger
    }

    /// The time the room keeps (its session's clock).
    private let clock: any SessionClock

    /// The challenge of the password exchange `invitation` opened, or the decline of one that
    /// opened none or comes from a network with too many failed ones.
    package func challenge(for invitation: Invitation) -> InvitationDecision {
        let now = clock.now
        let request = JoinRequest(context: invitation.context)
        let network = RemoteAddress.limitGroup(of: invitation.remoteAddress)
        switch gate.withLock({ $0.challenge(invitation.peer, from: invitation.remoteAddress, request: request, at: now) }) {
        case .failure(let refusal) where refusal.code == .passwordNeeded:
            // The first step of every join by address (the guest could not know the game is
            // private; it is asked the password and comes again): nothing for the host's screen.
            logger.info("Guest asked for the password.", metadata: .game(peer: invitation.peer.displayName).merging([
                "address": .string(invitation.remoteDescription),
            ]) { $1 })
            return .decline(reason: refusal.message)
        case .failure(let refusal):
            note(refusal.code == .tooManyWrongPasswords ? .tooMany : .wrong, fromNetwork: network)
            return .decline(reason: refusal.message)
        case .success(let (challenge, keys, charge)):
            let logger = logger
            let guestID = invitation.peer.identity
            refusals.withLock { $0.challenged[guestID] = (network, now) }
            let guest = invitation.peer.displayName
            let address = invitation.remoteDescription
            return .challenge(InvitationChallenge(bytes: challenge) { [weak self] answer in
                do {
                    try keys.checkInitiatorTag(Array(answer))
                    self?.gate.withLock { $0.refund(charge) }
                    self?.refusals.withLock { _ = $0.challenged.removeValue(forKey: guestID) }
                    return nil
                } catch {
                    logger.notice("Guest turned away.", metadata: .game(peer: guest).merging([
                        "address": .string(address), "reason": .string(GameError.wrongPassword.message),
                    ]) { $1 })
                    self?.refusals.withLock { _ = $0.challenged.removeValue(forKey: guestID) }
                    self?.note(.wrong, fromNetwork: network)
                    return GameError.wrongPassword.message
                }
            })
        }
    }

    /// A guest challenged for the password ended its invitation without an answer: its password
    /// was wrong (it found out first), or it gave up.
    package func challengeEnded(_ peer: PeerID) {
        guard let challenged = refusals.withLock({ $0.challenged.removeValue(forKey: peer.identity) }) else { return }
        note(.wrong, fromNetwork: challenged.network)
    }

    /// The password refusals to tell the host by `now`; afterwards they are told.
    package func due(at now: ContinuousClock.Instant) -> [PasswordRefusals] {
        refusals.withLock { refusals in
            defer { refusals.ready = [] }
            // A challenge whose end the session never reported (its peer was connected otherwise) is let go.
            if refusals.challenged.count > 64 { refusals.challenged = refusals.challenged.filter { now - $0.value.at < PasswordRefusalTally.period } }
            return refusals.ready + refusals.tally.due(at: now)
        }
    }

    /// Counts a guest turned away for the password, from `network`: the first of its minute is
    /// ready at once, the others are told together when the minute ends.
    private func note(_ reason: PasswordRefusals.Reason, fromNetwork network: String) {
        let now = clock.now
        refusals.withLock { refusals in
            if let told = refusals.tally.note(reason, from: network, at: now) { refusals.ready.append(told) }
        }
    }
}
