import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer

/// The game a host runs, as the host's screen (``HostREPL``) drives it, whatever the game:
/// what to announce, who may join, chat, removals, and what the host reads and asks to see.
protocol HostedRoom: Sendable {
    /// The host's session.
    var session: Session { get }
    /// The host, as players see it.
    var host: PlayerRef { get }
    /// What the banner says of the game ("numbers 1-100", "tic-tac-toe …").
    var summary: String { get }
    /// How many players may join.
    var maximumPlayers: Int { get }
    /// How long a removed player is turned away.
    var removalPeriod: Duration { get }
    /// Whether players need a password.
    var isPrivate: Bool { get }
    /// How many players are in (away ones included).
    var playerCount: Int { get }
    /// What the game announces now (TXT record).
    var discoveryInfo: DiscoveryInfo { get }

    /// Starts serving.
    func start()
    /// Stops serving (the session stays up).
    func stop()
    /// Whether `peer` from `address` could join at all (before the host is asked about it).
    func admission(of peer: PeerID, from address: String?) -> InvitationDecision
    /// Whether the inviter of `invitation` may come in now (a private game then challenges).
    func admission(of invitation: Invitation) -> InvitationDecision
    /// Says `text` to everyone as the host.
    func say(_ text: String) throws(GameError)
    /// Removes the player called `name`.
    func remove(named name: String) throws(GameError) -> PlayerRemoval
    /// Lets players removed under `name` join again.
    func readmit(named name: String) throws(GameError) -> [PlayerRemoval]

    /// What the host reads as the game goes: lines printed to `console` in `text`'s style,
    /// `changed` called when the announced facts change; until the returned stop is called.
    func observe(console: any Console, text: GameText, changed: @escaping @Sendable () -> Void) -> @Sendable () -> Void
    /// `/players`, `/history`, `/score`: what to print.
    func players(text: GameText) -> ScreenLine
    func history(text: GameText) -> ScreenLine
    func scores(text: GameText) -> ScreenLine
    /// The scores when the game ends.
    func finalScores(text: GameText) -> ScreenLine
    /// The lines of the game's own command that `line` types (nil: it types none).
    func gameCommand(_ line: String) -> [String]?
    /// What `/help` says in this game.
    var gameHelp: GameHelp { get }
    /// `/new [RANGE]`.
    func newRound(range: String?) throws(GameError)
}

extension HostedRoom {
    /// The verification code with each connected player, by identity, for `/players`: the
    /// digits the player reads beside the host's name.
    var verificationCodes: [UUID: String] {
        var codes: [UUID: String] = [:]
        for peer in session.connectedPeers { codes[peer.identity] = session.verificationCode(with: peer) }
        return codes
    }
}
