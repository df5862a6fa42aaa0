import Foundation
import Multipeer

/// The host's check of the password proofs of a private game, with a limit on wrong guesses.
///
/// A wrong or missing proof turns the guest away. An address that sent
/// ``maximumFailures`` wrong proofs within ``period`` is turned away without a check until the
/// oldest of them is that old: guessing online is slowed to a few passwords a minute per
/// address, while a player who mistyped simply tries again.
struct PasswordGate: Sendable {
    /// Wrong proofs an address may send within ``period``.
    static let maximumFailures = 5
    /// The window of ``maximumFailures``.
    static let period: Duration = .seconds(60)
    /// The most addresses whose failures are remembered (the oldest are forgotten first).
    static let maximumAddresses = 4_096

    let key: PasswordProof.Key
    private var failures: [String: [ContinuousClock.Instant]] = [:]

    init(key: PasswordProof.Key) {
        self.key = key
    }

    /// Why the guest `peer` from `address`, whose invitation carries `request`, is turned away;
    /// nil when its proof is right.
    mutating func refusal(of peer: PeerID, from address: String, request: JoinRequest, at now: ContinuousClock.Instant) -> GameError? {
        var recent = (failures[address] ?? []).filter { now - $0 < Self.period }
        defer { failures[address] = recent.isEmpty ? nil : recent }
        if recent.count >= Self.maximumFailures { return .tooManyWrongPasswords(Self.maximumFailures, period: Self.period) }
        guard let proof = request.passwordProof else { return .passwordNeeded }
        if PasswordProof.isValid(proof, key: key, guest: peer.identity) { return nil }
        if failures.count >= Self.maximumAddresses, recent.isEmpty { forgetOldest(now: now) }
        recent.append(now)
        return .wrongPassword
    }

    /// Forgets the address whose last failure is the oldest.
    private mutating func forgetOldest(now: ContinuousClock.Instant) {
        if let oldest = failures.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            failures[oldest] = nil
        }
    }
}
