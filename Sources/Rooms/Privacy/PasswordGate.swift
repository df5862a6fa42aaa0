import Foundation
import Multipeer
import PAKE

/// The host's side of a private game's ``PasswordExchange``, with a limit on guesses.
///
/// Each exchange the host answers is one guess, charged to the guest's network (its address; an
/// IPv6 address with its /64, see ``RemoteAddress/limitGroup(of:)``) when the challenge goes
/// out, and refunded when the guest's confirmation checks. A guest that answers wrongly, or
/// never, keeps its charge. A network charged ``maximumFailures`` times within ``period`` is
/// turned away without an exchange until the oldest charge is that old, and so is everyone once
/// ``maximumFailuresOverall`` are charged within ``period`` from all networks together (guessing
/// from many addresses): online guessing is held to a few passwords a minute per network and a
/// minute's total for the game, while a player who mistyped simply tries again.
package struct PasswordGate: Sendable {
    /// Wrong (or unfinished) exchanges a network may have within ``period``.
    package static let maximumFailures = 5
    /// Wrong exchanges all networks together may have within ``period``.
    package static let maximumFailuresOverall = 30
    /// The window of both limits.
    package static let period: Duration = .seconds(60)

    /// One charge: where it was made, and when.
    package struct Charge: Hashable, Sendable {
        package let id: UInt64
        package let network: String
        package let at: ContinuousClock.Instant
    }

    package let password: GamePassword
    /// The host's identity, in the exchange's channel identifier.
    package let host: UUID
    /// The charges within ``period``, oldest first.
    private var charges: [Charge] = []
    private var nextID: UInt64 = 0

    package init(password: GamePassword, host: UUID) {
        self.password = password
        self.host = host
    }

    /// How many charges are within the period (for tests).
    package var chargeCount: Int { charges.count }

    /// The host's challenge to `guest` from `address`, whose invitation carries `request`, and
    /// the charge it made (to refund with ``refund(_:)`` once the answer checks); the reason it is
    /// turned away instead.
    package mutating func challenge(
        _ guest: PeerID, from address: String, request: JoinRequest, at now: ContinuousClock.Instant
    ) -> Result<(challenge: Data, keys: CPaceKeys, charge: Charge), GameError> {
        charges.removeAll { now - $0.at >= Self.period }
        let network = RemoteAddress.limitGroup(of: address)
        if charges.count(where: { $0.network == network }) >= Self.maximumFailures {
            return .failure(.tooManyWrongPasswords(Self.maximumFailures, period: Self.period))
        }
        if charges.count >= Self.maximumFailuresOverall {
            return .failure(.tooManyWrongPasswordsOverall(Self.maximumFailuresOverall, period: Self.period))
        }
        guard let opening = request.passwordExchange else { return .failure(.passwordNeeded) }
        let charge = Charge(id: nextID, network: network, at: now)
        nextID += 1
        // A malformed opening is a wrong guess too: it is charged, and gets no challenge.
        charges.append(charge)
        do {
            let (challenge, keys) = try PasswordExchange.respond(to: opening, password: password, guest: guest.identity, host: host)
            return .success((challenge, keys, charge))
        } catch {
            return .failure(.malformedPasswordExchange)
        }
    }

    /// Takes back `charge`: its exchange was confirmed.
    package mutating func refund(_ charge: Charge) {
        charges.removeAll { $0.id == charge.id }
    }
}
