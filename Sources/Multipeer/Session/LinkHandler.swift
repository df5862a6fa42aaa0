import Foundation
import Synchronization

/// The session's handler for one connection: it forwards what the transport reports to the
/// session, tagged with its own identity, which is the key of the connection's record.
final class LinkHandler: ConnectionHandler {
    let session: Session
    /// Set for connections this side opened to deliver an invitation.
    let outgoing: OutgoingInvitation?

    init(session: Session, outgoing: OutgoingInvitation?) {
        self.session = session
        self.outgoing = outgoing
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    func connectionDidOpen(_ connection: any Connection) {
        session.linkOpened(self, connection)
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        // A stream's bytes and credit take a path of their own (Session+StreamReceiving), the rest the session's.
        switch frame {
        case .streamData(let stream, let bytes): if session.receiveStreamDataQuickly(id: stream, bytes: bytes, on: id) { return }
        case .streamWindow(let stream, let credit): if session.receiveStreamWindowQuickly(id: stream, credit: credit, on: id) { return }
        default: break
        }
        session.link(self, received: frame)
    }

    func connectionDidFinishDelivering(_ connection: any Connection) {
        session.linkFinishedDelivering(id)
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        session.linkClosed(self, error: error)
    }

    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
        session.link(self, writable: isWritable)
    }
}

/// An invitation this side is delivering, from connect to answer.
final class OutgoingInvitation: Sendable {
    /// The peer discovery said is there, if known before the answer.
    let expectedPeer: PeerID?
    let context: Data
    let expires: ContinuousClock.Instant
    /// The inviter's own check of the host that accepts.
    let hostCheck: Session.HostCheck?
    /// The inviter's answer to a challenge in the ACCEPT.
    let answer: InvitationAnswer?
    /// Settled exactly once: by the answer, the deadline, a closed connection or cancellation.
    let outcome = OneShot<Result<InvitationOutcome, MultipeerError>>()
    /// Shared by the attempts at several addresses of one invitation: only the first connection
    /// to open says HELLO.
    let race: ConnectRace?
    /// Only to learn whether the expected peer answers: the connection is closed as soon as it
    /// opened and proved the peer, before HELLO.
    let isProbe: Bool
    /// This side's verification-code nonce: HELLO carries its commitment, REVEAL the nonce.
    let codeNonce = VerificationCode.nonce()
    /// For a probe: the key the peer proved when its connection opened (nil over a transport
    /// that proves nothing), settled before ``outcome``.
    let probedKey = OneShot<PeerFingerprint?>()

    init(
        expectedPeer: PeerID?, context: Data, expires: ContinuousClock.Instant, hostCheck: Session.HostCheck? = nil, answer: InvitationAnswer? = nil,
        race: ConnectRace? = nil, isProbe: Bool = false
    ) {
        self.answer = answer
        self.expectedPeer = expectedPeer
        self.isProbe = isProbe
        self.hostCheck = hostCheck
        self.context = context
        self.expires = expires
        self.race = race
    }

    /// The hello that delivers this invitation from `peer`, announcing `features`, sent at `now`:
    /// it gives the advertiser the time that is left, so both sides' deadlines nearly coincide.
    func hello(from peer: PeerID, features: UInt32, at now: ContinuousClock.Instant) -> Frame {
        let remaining = UInt32(clamping: max(1, (expires - now).wholeMilliseconds))
        return .hello(.init(
            peer: peer, invitationTimeoutMilliseconds: remaining, codeCommitment: VerificationCode.commitment(to: codeNonce),
            features: features, context: context))
    }
}

/// The attempts of one invitation at several addresses, overlapping: the first connection to
/// open wins; the others are closed before they say anything.
final class ConnectRace: Sendable {
    private let winner = Mutex<ObjectIdentifier?>(nil)

    /// Makes `id` the winner unless another is; returns whether `id` is the winner.
    func claim(_ id: ObjectIdentifier) -> Bool {
        winner.withLock { winner in
            if winner == nil { winner = id }
            return winner == id
        }
    }

    /// Whether some attempt has won.
    var isWon: Bool { winner.withLock { $0 != nil } }

    /// Whether `id` won.
    func isWinner(_ id: ObjectIdentifier) -> Bool { winner.withLock { $0 == id } }
}
