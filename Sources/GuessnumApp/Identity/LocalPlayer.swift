import Foundation
import GuessnumResources
import Multipeer
import MultipeerPOSIX

/// This program's peer: the display name chosen or defaulted, and an identity kept between
/// runs that no other running program shares.
///
/// Hosting and joining keep separate identities, so that one user can host in one terminal
/// and join from another; and each running program claims its own identity slot (see
/// ``Multipeer/ClaimedIdentity``), so that two players from one account are two players. A
/// player who quits and joins again gets the same identity back and is recognised. A program in
/// a later slot shows its role's first key's endorsement of its own (``endorsement``): two games
/// hosted from one account at once are known as one person's.
public struct LocalPlayer: Sendable {
    /// What this program plays as.
    public enum Role: String, Sendable { case host, guest, drop }

    /// The peer to play as.
    public let peer: PeerID
    /// The stored identity held while the program runs; nil when playing with a temporary one.
    public let claim: ClaimedIdentity?
    /// The identity key that proves `peer` (the claimed one, or a temporary one).
    public let key: PeerKey
    /// A sentence to show the user about how the identity was chosen, if any.
    public let notice: String?
    /// The endorsement of ``key`` by the first key of this role (the person's), when ``key`` is
    /// another (a second program of the same account runs); nil otherwise.
    public let endorsement: PeerEndorsement?

    /// The local peer for `role`, named `name` or by default the user's login name.
    /// - Throws: ``Multipeer/MultipeerError/Code/invalidDisplayName`` for a name that cannot
    ///   be a display name; ``Multipeer/MultipeerError/Code/identityStorage`` for a host whose
    ///   key cannot be kept or read (a guest plays with a temporary identity instead, and is
    ///   told).
    ///   `loginName` is the account's name from the system's user database, for when
    ///   neither `USER` nor `LOGNAME` says it.
    public init(
        name: String?, role: Role, environment: [String: String] = ProcessInfo.processInfo.environment,
        loginName: String? = LocalPlayer.systemLoginName()
    ) throws(MultipeerError) {
        let displayName: String
        var notices: [String] = []
        if let name {
            displayName = name
        } else if let login = Self.loginName(environment: environment, system: loginName) {
            displayName = login
        } else {
            displayName = Self.randomName()
            notices.append("Your login name could not be found, so you play as \(displayName); choose a name with --name.")
        }
        try PeerID.validate(displayName: displayName)
        let claim: ClaimedIdentity?
        do {
            claim = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-\(role.rawValue)", environment: environment)
        } catch {
            // A host that players know must not quietly become someone else; a player may.
            if role != .guest { throw error }
            claim = nil
            notices.append("\(error.message) Playing with a temporary identity for now.")
        }
        if claim?.replacedIdentity != nil {
            notices.append("Your identity is now a key kept in \(claim?.store.fileURL.path ?? "your configuration directory"), so that others can check it is you; players who knew you will see you as a new player once.")
        }
        notice = notices.isEmpty ? nil : notices.joined(separator: " ")
        self.claim = claim
        key = claim?.key ?? PeerKey.generate()
        peer = try key.peer(displayName: displayName)
        endorsement = claim.flatMap { Self.endorsement(of: $0, fileName: "peer-identity-\(role.rawValue)", environment: environment) }
    }

    /// The endorsement of a claim in a later slot by the first slot's key, which the program
    /// holding that slot has stored; nil for the first slot, or when that key cannot be read
    /// (the program then plays under its own key alone, as before endorsements).
    static func endorsement(of claim: ClaimedIdentity, fileName: String, environment: [String: String]) -> PeerEndorsement? {
        guard claim.slot > 1 else { return nil }
        let first = PeerIdentityStore.standard(application: "guessnum", fileName: fileName, environment: environment)
        guard let owner = try? first.load() else { return nil }
        return try? PeerEndorsement(endorsing: claim.key.fingerprint, by: owner)
    }

    /// The login name: `USER`, else `LOGNAME`, else the system's; nil when none is a valid name.
    static func loginName(environment: [String: String], system: String?) -> String? {
        [environment["USER"], environment["LOGNAME"], system].compactMap { $0 }.first { (try? PeerID.validate(displayName: $0)) != nil }
    }

    /// The name of the account running this program, from the user database (`getpwuid`).
    public static func systemLoginName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    private static func randomName() -> String {
        let names = GuessnumResources.playerNames.filter { (try? PeerID.validate(displayName: $0)) != nil }
        return names.randomElement() ?? "player-\(Int.random(in: 1000...9999))"
    }
}
