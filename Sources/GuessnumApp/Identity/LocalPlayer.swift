import Foundation
import GuessnumResources
import Multipeer

/// This program's peer: the display name chosen or defaulted, and an identity kept between
/// runs that no other running program shares.
///
/// Hosting and joining keep separate identities, so that one user can host in one terminal
/// and join from another; and each running program claims its own identity slot (see
/// ``Multipeer/ClaimedIdentity``), so that two players from one account are two players. A
/// player who quits and joins again gets the same identity back and is recognised.
public struct LocalPlayer: Sendable {
    /// What this program plays as.
    public enum Role: String, Sendable { case host, guest }

    /// The peer to play as.
    public let peer: PeerID
    /// The stored identity held while the program runs; nil when playing with a temporary one.
    public let claim: ClaimedIdentity?
    /// A sentence to show the user about how the identity was chosen, if any.
    public let notice: String?

    /// The local peer for `role`, named `name` or by default the user's login name.
    /// - Throws: ``Multipeer/MultipeerError/Code/invalidDisplayName`` for a name that cannot
    ///   be a display name.
    public init(name: String?, role: Role, environment: [String: String] = ProcessInfo.processInfo.environment) throws(MultipeerError) {
        let displayName = name ?? Self.defaultName(environment: environment)
        try PeerID.validate(displayName: displayName)
        let claim: ClaimedIdentity?
        do {
            claim = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-\(role.rawValue)", environment: environment)
            notice = nil
        } catch {
            claim = nil
            notice = "\(error.message) Playing with a temporary identity for now."
        }
        self.claim = claim
        if let claim {
            peer = try PeerID(displayName: displayName, identity: claim.identity)
        } else {
            peer = try PeerID(displayName: displayName)
        }
    }

    private static func defaultName(environment: [String: String]) -> String {
        for candidate in [environment["USER"], environment["LOGNAME"]] {
            if let candidate, (try? PeerID.validate(displayName: candidate)) != nil { return candidate }
        }
        let names = GuessnumResources.playerNames.filter { (try? PeerID.validate(displayName: $0)) != nil }
        return names.randomElement() ?? "player-\(Int.random(in: 1000...9999))"
    }
}
