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
    /// After this moment the inviter has given up; a later answer is not delivered.
    public let expires: ContinuousClock.Instant
    /// The inviter's commitment to its verification-code nonce (see ``VerificationCode``).
    let codeCommitment: [UInt8]
}

/// The advertising side's answer to an ``Invitation``.
public enum InvitationDecision: Sendable, Hashable {
    /// Let the peer join.
    case accept
    /// Turn the peer away; `reason` (for example "game is full") is shown to the inviter.
    case decline(reason: String?)
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
