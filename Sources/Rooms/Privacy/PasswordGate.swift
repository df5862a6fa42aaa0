import Foundation
import Multipeer
import PAKE

/// The host's side of a private game's ``PasswordExchange``, with a limit on guesses.
///
/// Each exchange the host answers is one guess, charged to the guest's network (its address; an
/// IPv6 address with its /64, see ``RemoteAddress/limitGroup(of:)``) when the challenge goes
/// out, and refunded when the guest's confirmation checks. A guest that answers wrongly, or
/// never, keeps its charge. A network charged ``maximumFailures`` times within ``period`` is
/// turned away without an exchange until the oldest charge is that old. Once
/// ``maximumFailuresOverall`` are charged within ``period`` from all networks together
/// (guessing from many addresses), the game takes no more guesses for the period — except each
/// network's **first try**: a network that has not spent one within ``firstTryPeriod`` gets one
/// exchange all the same, as long as fewer than ``maximumFirstTries`` were spent in that time.
/// A first try that confirms is refunded with its charge.
///
/// So an attacker who spends the overall budget does not keep out a player with the right
/// password (whose network has a first try left); online guessing stays within a few passwords
/// a minute per network, and within ``maximumFailuresOverall`` a ``period`` plus
/// ``maximumFirstTries`` a ``firstTryPeriod`` for the whole game. A player who mistyped simply
/// tries again. (A player whose seat is held needs no exchange: see ``RoomAdmission``.)
package struct PasswordGate: Sendable {
    /// Wrong (or unfinished) exchanges a network may have within ``period``.
    package static let maximumFailures = 5
    /// Wrong exchanges all networks together may have within ``period``, first tries aside.
    package static let maximumFailuresOverall = 30
    /// The window of both limits.
    package static let period: Duration = .seconds(60)
    /// How long a network's spent first try stays spent.
    package static let firstTryPeriod: Duration = .seconds(600)
    /// First tries all networks together may spend within ``firstTryPeriod``.
    package static let maximumFirstTries = 256

    /// One charge: where it was made, and when.
    package struct Charge: Hashable, Sendable {
        package let id: UInt64
        package let network: String
        package let at: ContinuousClock.Instant
        /// Whether the charge is its network's first try, taken past the overall budget.
        package let isFirstTry: Bool
    }

    package let password: GamePassword
    /// The host's identity, in the exchange's channel identifier.
    package let host: UUID
    /// The charges within ``period``, oldest first.
    private var charges: [Charge] = []
    /// The networks whose first try is spent, and when (within ``firstTryPeriod``; at most
    /// ``maximumFirstTries``).
    private var firstTries: [String: ContinuousClock.Instant] = [:]
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
        if firstTries.values.contains(where: { now - $0 >= Self.firstTryPeriod }) {
            firstTries = firstTries.filter { now - $0.value < Self.firstTryPeriod }
        }
        let network = RemoteAddress.limitGroup(of: address)
        if charges.count(where: { $0.network == network }) >= Self.maximumFailures {
            return .failure(.tooManyWrongPasswords(Self.maximumFailures, period: Self.period))
        }
        let isFirstTry = charges.count(where: { !$0.isFirstTry }) >= Self.maximumFailuresOverall
        if isFirstTry, firstTries[network] != nil || firstTries.count >= Self.maximumFirstTries {
            return .failure(.tooManyWrongPasswordsOverall(Self.maximumFailuresOverall, period: Self.period))
        }
        guard let opening = request.passwordExchange else { return .failure(.passwordNeeded) }
        let charge = Charge(id: nextID, network: network, at: now, isFirstTry: isFirstTry)
        nextID += 1
        // A malformed opening is a wrong guess too: it is charged, and gets no challenge.
        charges.append(charge)
        if isFirstTry { firstTries[network] = now }
        do {
            let (challenge, keys) = try PasswordExchange.respond(to: opening, password: password, guest: guest.identity, host: host)
            return .success((challenge, keys, charge))
        } catch {
            return .failure(.malformedPasswordExchange)
        }
    }

    /// Takes back `charge`: its exchange was confirmed (a first try is its network's again).
    package mutating func refund(_ charge: Charge) {
        charges.removeAll { $0.id == charge.id }
        if charge.isFirstTry { firstTries[charge.network] = nil }
    }
}
