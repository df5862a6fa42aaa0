import Logging
import Multipeer

extension Logger.Metadata {
    /// The metadata of a game log line about `peer` (a display name), with an error `code`
    /// (a `GameError.Code` or `MultipeerError.Code` raw value) when there is one.
    @usableFromInline package static func game(peer: String, code: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["peer": .string(peer)]
        if let code { metadata["code"] = .string(code) }
        return metadata
    }
}

extension Logger {
    /// Logs at `.notice` that the host refused `peer` for `refusal` (see ``RoomSeats/recordRefusal(_:by:)``,
    /// which says whether it is the first time: only that one is logged), with the error told to
    /// the peer if any, and `extra` metadata.
    package func refusal(_ refusal: Refusal, from peer: PeerID, error: GameError? = nil, metadata extra: Logger.Metadata = [:]) {
        var metadata = Logger.Metadata.game(peer: peer.displayName, code: error?.code.rawValue).merging(extra) { $1 }
        metadata["reason"] = .string(refusal.rawValue)
        if let error { metadata["error"] = .string(error.message) }
        notice(refusal.sentence, metadata: metadata)
    }
}

extension Logger {
    /// Logs at `.notice` that the inviter of `invitation` was turned away, if `decision` declines it.
    package func turnedAway(_ invitation: Invitation, by decision: InvitationDecision) {
        guard case .decline(let reason) = decision else { return }
        notice("Guest turned away.", metadata: .game(peer: invitation.peer.displayName).merging([
            "address": .string(invitation.remoteDescription), "reason": .string(reason ?? "declined"),
        ]) { $1 })
    }
}
