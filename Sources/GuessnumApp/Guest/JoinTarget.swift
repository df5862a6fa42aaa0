import GuessnumGame
import Multipeer
import MultipeerPOSIX
import SafeText

/// A game the player is joining, and how they came to it: picked from the list (or found by
/// `--game`), named by a join code, or reached at an address. Every way in goes through the
/// same join — the same key check, the same password question — and differs only in what the
/// host is checked by and called.
struct JoinTarget: Sendable {
    /// How the player came to the game.
    enum Route: Sendable, Equatable {
        /// Listed by discovery, or remembered from before: the host is checked by its listed name.
        case listed
        /// A join code, which pins the host's key: the host is checked by the name it answers with.
        case code
        /// An address, whose host's key was learned just before (``Multipeer/Session/identify(_:timeout:)``):
        /// checked as a join code's host.
        case address(Endpoint)
    }

    /// The game: its host's identity and addresses, and what discovery said of it (nothing
    /// for a code or an address).
    let game: DiscoveredPeer
    let route: Route
    /// The game to play there when the listing does not say (a host that declined another
    /// game named its own); nil: the listing's, or guess-the-number.
    var playing: String?

    /// The game of the host that `code` names.
    static func code(_ code: JoinCode) -> JoinTarget? {
        guard let peer = try? PeerID(displayName: "the host of this join code", identity: code.identity) else { return nil }
        return JoinTarget(game: DiscoveredPeer(peer: peer, endpoints: code.endpoints(near: NetworkInterfaces.current()), info: DiscoveryInfo()), route: .code)
    }

    /// The game at `endpoint`, whose host proved `key` there.
    static func address(_ endpoint: Endpoint, key: PeerFingerprint) -> JoinTarget? {
        guard let peer = try? PeerID(displayName: "the host at \(endpoint)", identity: key.identity) else { return nil }
        return JoinTarget(game: DiscoveredPeer(peer: peer, endpoints: [endpoint], info: DiscoveryInfo()), route: .address(endpoint))
    }

    /// Whether the host's name comes from the list: otherwise it is known only once it answers.
    var isListed: Bool { route == .listed }

    /// The ID of the game to play: ``playing``, else what the listing says (guess-the-number
    /// when it says nothing).
    var gameID: String { playing ?? GameAdvertisement(decoding: game.info).gameID }

    /// The host in a sentence: its listed name, or how it was reached ("the host of this join code").
    var host: String { TerminalText.sanitized(game.peer.displayName) }

    /// ``host`` at the start of a sentence: a listed name as it is, a description capitalised.
    var hostStartingSentence: String { isListed ? host : host.prefix(1).uppercased() + host.dropFirst() }

    /// The game in a sentence: "alice's game", "the game of this join code", "the game at 10.0.0.2:4000".
    var gameName: String {
        switch route {
        case .listed: "\(host)'s game"
        case .code: "the game of this join code"
        case .address(let endpoint): "the game at \(endpoint)"
        }
    }

    /// ``gameName`` at the start of a sentence.
    var gameNameStartingSentence: String { isListed ? gameName : gameName.prefix(1).uppercased() + gameName.dropFirst() }
}
