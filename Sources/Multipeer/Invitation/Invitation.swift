import Foundation

/// A request from a browsing peer to join this session, as the advertising side sees it.
public struct Invitation: Sendable {
    /// Who wants to join.
    public let peer: PeerID
    /// Application bytes the inviter sent along (empty when none).
    public let context: Data
    /// Where the invitation came from, for messages to people.
    public let remoteDescription: String
    /// The inviter's IP address without the port, the key of limits per address.
    public var remoteAddress: String { RemoteAddress.host(of: remoteDescription) }
    /// After this moment of the session's ``Session/clock`` the inviter has given up; a later
    /// answer is not delivered. See ``hasExpired``.
    public let expires: ContinuousClock.Instant
    /// Whether the connection proved the key behind ``peer``'s identity (over TLS, before the
    /// HELLO): the inviter is the very program that had this identity before. False over a
    /// transport that proves nothing (``Transport/provesPeers``).
    public let isIdentityProven: Bool
    /// The inviter's commitment to its verification-code nonce (see ``VerificationCode``).
    let codeCommitment: [UInt8]
    /// Now, by the clock of the session the invitation came to, which ``expires`` is a moment
    /// of (`ContinuousClock`'s when none was given).
    private let now: @Sendable () -> ContinuousClock.Instant

    init(
        peer: PeerID, context: Data, remoteDescription: String, expires: ContinuousClock.Instant, codeCommitment: [UInt8],
        isIdentityProven: Bool = false, clock: (any SessionClock)? = nil
    ) {
        self.peer = peer
        self.isIdentityProven = isIdentityProven
        self.context = context
        self.remoteDescription = remoteDescription
        self.expires = expires
        self.codeCommitment = codeCommitment
        if let clock {
            now = { clock.now }
        } else {
            now = { ContinuousClock.now }
        }
    }

    /// Whether the inviter has given up by now, by the session's clock.
    public var hasExpired: Bool { now() > expires }
}

/// The advertising side's answer to an ``Invitation``.
public enum InvitationDecision: Sendable, Hashable {
    /// Let the peer join.
    case accept
    /// Turn the peer away; `reason` (for example "game is full") is shown to the inviter.
    case decline(reason: String?)
    /// Let the peer join once it has answered `challenge` rightly: the challenge travels in the
    /// ACCEPT, the inviter's answer in its REVEAL, and the peer is connected only when the
    /// challenge's check passes it (for example, the second half of a password exchange).
    case challenge(InvitationChallenge)
}

/// A question the advertiser puts to an inviter it accepts, and the check of the answer
/// (see ``InvitationDecision/challenge(_:)``).
///
/// The inviter answers with the `answer` closure it gave to `Session.invite`. Until the answer
/// is checked the inviter is not connected: it stays in its handshake, which ends when the
/// invitation expires. A wrong answer, or none, closes the link with the check's sentence.
public struct InvitationChallenge: Sendable, Hashable {
    /// What the ACCEPT carries to the inviter.
    public let bytes: Data
    /// Checks the inviter's answer: nil lets the peer in, a sentence turns it away (the
    /// inviter reads it). It runs under the session's lock: it must be quick and must not call
    /// into the session.
    public let check: @Sendable (Data) -> String?
    private let id = UUID()

    /// A challenge of `bytes`, whose answer `check` judges.
    public init(bytes: Data, check: @escaping @Sendable (Data) -> String?) {
        self.bytes = bytes
        self.check = check
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// How an inviter answers the advertiser's challenge (see ``InvitationChallenge``): given the
/// host that accepted and the ACCEPT's challenge bytes (empty when the host set none), the bytes
/// of the answer, or a sentence that refuses the host. It runs under the session's lock: it must
/// be quick and must not call into the session.
public typealias InvitationAnswer = @Sendable (_ host: PeerID, _ challenge: Data) -> Result<Data, InvitationAnswerRefusal>

/// An inviter's refusal of the host's challenge, with the sentence the inviter is given
/// (as ``MultipeerError/Code/hostRefused``) and the host is sent.
public struct InvitationAnswerRefusal: Error, Sendable, Hashable {
    /// Why, in words for people.
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// How an advertising session answers invitations.
public enum InvitationPolicy: Sendable {
    /// Accept every invitation.
    case acceptAll
    /// Ask `handler`, which may take its time (for example to ask a person); an answer that
    /// comes after the invitation expired is ignored and the inviter learns it timed out.
    case ask(@Sendable (Invitation) async -> InvitationDecision)
    /// Decide at once with `rule` (for example, decline when a game is full).
    case custom(@Sendable (Invitation) -> InvitationDecision)
}

/// What an inviter learns about its invitation: exactly one of these.
public enum InvitationOutcome: Sendable, Hashable {
    /// The peer accepted; it is now connected.
    case connected(PeerID)
    /// The peer said no, perhaps with a reason for people.
    case declined(reason: String?)
    /// No answer came before the invitation's timeout.
    case timedOut
}
