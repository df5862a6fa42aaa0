import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer

/// A game on the room layer (tic-tac-toe, rock-paper-scissors) as the host's screen drives it:
/// its ``Rooms/RoomHost``, and what the host reads of it through the game's presenter.
final class PlayedRoom<Presenter: GamePresenter>: HostedRoom {
    typealias Rules = Presenter.Rules

    let room: RoomHost<Rules>
    /// The presenter that tells the host the game (and keeps what it has told).
    private let presenter = Protected(Presenter())
    /// The game's events so far, for `/history` (the latest ``historyLimit``).
    private let history = Protected<[Rules.Event]>([])
    private static var historyLimit: Int { 20 }

    init(room: RoomHost<Rules>) {
        self.room = room
    }

    var session: Session { room.session }
    var host: PlayerRef { PlayerRef(id: session.localPeer.identity, name: session.localPeer.displayName) }
    var summary: String { Presenter.summary(of: room.rules) }
    var maximumPlayers: Int { room.configuration.maximumPlayers }
    var removalPeriod: Duration { room.configuration.removalPeriod }
    var isPrivate: Bool { room.isPrivate }
    var playerCount: Int { room.playerCount }
    var discoveryInfo: DiscoveryInfo {
        GameAdvertisement(
            range: nil, playerCount: room.playerCount, maximumPlayers: maximumPlayers, round: room.round, isPrivate: isPrivate,
            game: Rules.kind.id
        ).discoveryInfo
    }

    func start() { room.start() }
    func stop() { room.stop() }
    func admission(of peer: PeerID, from address: String?) -> InvitationDecision { room.admission(of: peer, from: address) }
    func admission(of invitation: Invitation) -> InvitationDecision { room.admission(of: invitation) }
    func say(_ text: String) throws(GameError) { try room.say(text) }
    func remove(named name: String) throws(GameError) -> PlayerRemoval { try room.remove(named: name) }
    func readmit(named name: String) throws(GameError) -> [PlayerRemoval] { try room.readmit(named: name) }

    func observe(console: any Console, text: GameText, changed: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let (room, presenter, history) = (room, presenter, history)
        let me = host.id
        let reading = Task {
            for await activity in room.activity {
                guard case .item(let item) = activity else {
                    if case .passwordRefusals(let refusals) = activity { console.print(text.passwordRefusals(refusals)) }
                    continue
                }
                switch item {
                case .joined, .left, .scores: changed()
                case .game(_, let event):
                    history.withLock { $0 = Array(($0 + [event]).suffix(Self.historyLimit)) }
                default: break
                }
                console.print(presenter.withLock { text.item(item, presenter: &$0, host: me) })
            }
        }
        return { reading.cancel() }
    }

    func players(text: GameText) -> ScreenLine {
        var addresses: [UUID: String] = [:]
        for player in room.players { addresses[player.id] = room.address(of: player.id) }
        return text.roomPlayers(
            room.players, scores: room.scores, presenter: presenter.withLock { $0 }, codes: verificationCodes, addresses: addresses, isAway: room.isAway)
    }

    func history(text: GameText) -> ScreenLine {
        let lines = presenter.withLock { $0 }.history(of: history.withLock { $0 }, to: text.reader)
        return ScreenLine(lines.isEmpty ? "Nothing has happened in the game yet." : text.presented(lines))
    }

    func scores(text: GameText) -> ScreenLine { text.scores(room.scores, presenter: presenter.withLock { $0 }) }

    func finalScores(text: GameText) -> ScreenLine { text.finalScores(room.scores, presenter: presenter.withLock { $0 }) }

    func gameCommand(_ line: String) -> [String]? {
        GameCommand.typed(line, among: Presenter.commands).map { $0.lines(room.rules.view(for: nil)) }
    }

    var gameHelp: GameHelp { .room(presenter.withLock { $0 }) }

    func newRound(range: String?) throws(GameError) {
        guard range == nil else { throw GameError(.invalidRange, "\(Rules.kind.title) has no range: type /new alone.") }
        room.newRound()
    }
}
