import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// How a seat gets back into its game after a drop: the same host, proved again.
extension GuestREPL {
    /// How to get back into the game of `host`, joined at `endpoint`: the same address, and the
    /// same host (its identity and, if remembered, its key).
    func rejoin(_ host: PeerID, at endpoint: Endpoint, as seat: any GuestSeat) -> Reconnection.Rejoin {
        let session = session
        let keyCheck = keyCheck(listedAs: nil)
        let sameHost: Session.HostCheck = { answering, key in
            guard answering.identity == host.identity else {
                return "Another host answers at \(endpoint) now (\(TerminalText.sanitized(answering.displayName)), with another key): not rejoined."
            }
            return keyCheck?(answering, key)
        }
        return { timeout, resumeAfter throws(MultipeerError) in
            try await session.invite(endpoint, context: seat.joinRequest(resumeAfter: resumeAfter).context, timeout: timeout, hostCheck: sameHost)
        }
    }

    /// How to get back into the listed `game`: at its latest addresses (a restarted host
    /// listens on a new port), proving its key again, with a new exchange of the same password
    /// if any (and what the player has of the game, to be sent what it missed). A host that
    /// still holds the seat lets its player back without the exchange; that is no sign of an
    /// impostor here, as the key it proves is the one that proved the password before.
    func rejoin(
        _ game: DiscoveredPeer, as seat: any GuestSeat, secret: JoinSecret?, listedAs name: String
    ) -> Reconnection.Rejoin {
        let session = session
        let games = games
        let keyCheck = keyCheck(listedAs: name)
        let secret = secret.map { (password: $0.password, required: false) }
        return { timeout, resumeAfter throws(MultipeerError) in
            let (request, answer) = Self.joinRequest(seat.joinRequest(resumeAfter: resumeAfter), from: session.localPeer, to: game.peer, secret: secret)
            return try await session.invite(
                games.entry(for: game.peer) ?? game, context: request.context, timeout: timeout, hostCheck: keyCheck, answer: answer)
        }
    }
}
