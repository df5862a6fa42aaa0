import Foundation
import Logging

/// What a session checks of the peer at the other end of a link before trusting what it says:
/// the identity its key proves, and the host an invitation expects.
extension Session {
    /// Whether `connection` proved the identity `peer` claims; always true over a transport that
    /// proves nothing.
    func proves(_ peer: PeerID, on connection: any Connection) -> Bool {
        guard transport.provesPeers || connection.provenPeer != nil else { return true }
        return connection.provenPeer?.identity == peer.identity
    }

    /// Why the peer at the other end of `connection` must not even hear the invitation
    /// `outgoing` (its HELLO and context): where keys are proved before the first frame and the
    /// peer was discovered, a key whose identity is not the discovered peer's, or one the
    /// inviter's host check refuses. Nothing of the invitation then leaves this side.
    func refusalBeforeHello(answering outgoing: OutgoingInvitation, on connection: any Connection) -> MultipeerError? {
        guard transport.provesPeers, let expected = outgoing.expectedPeer else { return nil }
        guard let key = connection.provenPeer else { return .identityNotProved(expected.displayName) }
        if key.identity != expected.identity {
            return .notThePeerPicked(expected.displayName)
        }
        return outgoing.hostCheck?(expected, connection.proof).map { MultipeerError(.hostRefused, $0) }
    }

    /// Why the host `peer` that accepted `outgoing` must be refused: its key does not prove its
    /// identity, or (where keys are proved) it is not the peer that was discovered at the address.
    func refusal(of peer: PeerID, answering outgoing: OutgoingInvitation, on connection: any Connection) -> MultipeerError? {
        if !proves(peer, on: connection) { return .identityNotProved(peer.displayName) }
        if transport.provesPeers, let expected = outgoing.expectedPeer, expected != peer {
            return .notThePeerPicked(expected.displayName, answeredBy: peer.displayName)
        }
        return outgoing.hostCheck?(peer, connection.proof).map { MultipeerError(.hostRefused, $0) }
    }
}
