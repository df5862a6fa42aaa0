import Foundation
import Multipeer
import PAKE

/// How a guest and the host of a private game learn that they hold the same password without
/// either showing it (PROTOCOL.md §10): CPace (draft-irtf-cfrg-cpace, ristretto255 and
/// SHA-512), run inside the invitation, over TLS.
///
/// 1. The guest's ``JoinRequest`` carries ``Guest/opening``: a fresh session id and its share.
/// 2. The host answers in its ACCEPT's challenge with its share and its confirmation tag
///    (``respond(to:password:guest:host:)``).
/// 3. The guest checks the host's tag — a host that does not know the password is exposed
///    here — and answers in its REVEAL with its own tag, which the host checks before the guest
///    is let in.
///
/// The channel identifier names both identities, which TLS proves: a relay in the middle, whose
/// two connections carry other identities, cannot make the two ends agree even when it passes
/// every message along. Nothing either side sees can test a password offline: a guest, or a
/// false host, gets exactly one guess per connection, and the host's ``PasswordGate`` counts
/// every exchange that does not end confirmed.
public enum PasswordExchange {
    /// Prefixed to both identities to make CPace's channel identifier.
    static let label = Array("guessnum private game v1".utf8)
    /// How many bytes the guest's session id has.
    static let sessionBytes = 16
    /// How many bytes the guest's opening has: its session id, then its share.
    public static let openingBytes = sessionBytes + CPace.shareBytes
    /// How many bytes the host's challenge has: its share, then its tag.
    static let challengeBytes = CPace.shareBytes + CPace.tagBytes

    /// CPace's channel identifier for `guest` joining the game of `host`.
    static func channel(guest: UUID, host: UUID) -> [UInt8] {
        label + bytes(of: guest) + bytes(of: host)
    }

    /// The 16 bytes of an identity, in the order its text shows them.
    static func bytes(of identity: UUID) -> [UInt8] {
        withUnsafeBytes(of: identity.uuid) { Array($0) }
    }

    /// The guest's half of one exchange: make a new one for every invitation.
    public struct Guest: Sendable {
        private let initiator: CPaceInitiator
        private let session: [UInt8]
        /// Whether a host that accepts without a challenge is refused (the game is known to be
        /// private), rather than joined (a join code, sent with a password in case).
        private let required: Bool

        /// Starts an exchange of `password` for `guest` joining the game of `host`.
        public init(password: GamePassword, guest: UUID, host: UUID, required: Bool = true) {
            var generator = SystemRandomNumberGenerator()
            let session = (0..<PasswordExchange.sessionBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            initiator = CPaceInitiator(password: password.bytes, channel: PasswordExchange.channel(guest: guest, host: host), session: session)
            self.session = session
            self.required = required
        }

        /// What the invitation carries (``JoinRequest/passwordExchange``).
        public var opening: Data { Data(session + initiator.share) }

        /// The answer to the ACCEPT's challenge: this side's confirmation tag once the host's
        /// has checked; a refusal when it does not (a wrong password, or a false host), or when
        /// a game known to be private accepted without asking.
        public func answer(host: PeerID, challenge: Data) -> Result<Data, InvitationAnswerRefusal> {
            let name = host.displayName
            guard !challenge.isEmpty else {
                return required ? .failure(InvitationAnswerRefusal(GameError.passwordNotAsked(host: name).message)) : .success(Data())
            }
            let bytes = Array(challenge)
            guard bytes.count == PasswordExchange.challengeBytes else {
                return .failure(InvitationAnswerRefusal(GameError.passwordNotConfirmed(host: name).message))
            }
            do {
                let keys = try initiator.finish(responderShare: Array(bytes.prefix(CPace.shareBytes)))
                try keys.checkResponderTag(Array(bytes.suffix(CPace.tagBytes)))
                return .success(Data(keys.initiatorTag))
            } catch {
                return .failure(InvitationAnswerRefusal(GameError.passwordNotConfirmed(host: name).message))
            }
        }
    }

    /// The host's answer to a guest's `opening`: the challenge for the ACCEPT, and the keys
    /// whose ``CPaceKeys/checkInitiatorTag(_:)`` judges the guest's answer.
    /// - Throws: ``PAKEError`` when the opening is not a valid share (or has the wrong length).
    static func respond(to opening: Data, password: GamePassword, guest: UUID, host: UUID) throws(PAKEError) -> (challenge: Data, keys: CPaceKeys) {
        let bytes = Array(opening)
        guard bytes.count == openingBytes else { throw .invalidShare }
        let responder = try CPaceResponder(
            answering: Array(bytes.suffix(CPace.shareBytes)), password: password.bytes, channel: channel(guest: guest, host: host),
            session: Array(bytes.prefix(sessionBytes)))
        return (Data(responder.share + responder.keys.responderTag), responder.keys)
    }
}
