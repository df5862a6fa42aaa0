import Foundation
import GuessnumResources
import Multipeer

/// This user's peer: the display name chosen or defaulted, and the identity kept between runs.
enum PeerIdentity {
    enum Role: String { case host, guest }

    /// The local peer for `role`. Hosting and joining keep separate identities, so that one
    /// user can host in one terminal and join from another.
    static func local(name: String?, role: Role) throws(MultipeerError) -> PeerID {
        let displayName = name ?? defaultName()
        try PeerID.validate(displayName: displayName)
        let store = PeerIdentityStore.standard(application: "guessnum", fileName: "peer-identity-\(role.rawValue)")
        do {
            return try PeerID(displayName: displayName, identity: store.loadOrCreate())
        } catch {
            Output.error("\(error.message) Playing with a temporary identity for now.")
            return try PeerID(displayName: displayName)
        }
    }

    private static func defaultName() -> String {
        let environment = ProcessInfo.processInfo.environment
        for candidate in [environment["USER"], environment["LOGNAME"]] {
            if let candidate, (try? PeerID.validate(displayName: candidate)) != nil { return candidate }
        }
        let names = GuessnumResources.playerNames.filter { (try? PeerID.validate(displayName: $0)) != nil }
        return names.randomElement() ?? "player-\(Int.random(in: 1000...9999))"
    }
}
