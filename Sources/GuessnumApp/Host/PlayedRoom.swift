import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer

/// A game as the host's screen drives it, whatever the game: its ``Rooms/RoomHost``, and what
/// the host reads of it through the game's presenter.
final class PlayedRoom<Presenter: GamePresenter>: HostedRoom {
    typealias Rules = Presenter.Rules

    let room: RoomHost<Rules>
    /// The presenter that tells the host the game (and keeps what it has told).
    private let presenter = Protected(Presenter())
    /// The game's events so far, for `/history` (the latest ``historyLimit``).
    private let history = Protected<[Rules.Event]>([])
    private static var historyLimit: Int { 20 }
    /// The players who left (or were removed) and have not come back, latest last: `/players`
    /// lists them as gone, so that two of one name can be told apart (at most ``departedLimit``).
    private let departed = Protected<[PlayerRef]>([])
    private static var departedLimit: Int { 50 }

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
    var discoveryInfo: DiscoveryInfo { GameAdvertisement(of: room).discoveryInfo }

    func start() { room.start() }
    func stop() { room.stop() }
    func admission(of peer: PeerID, from address: String?) -> InvitationDecision { room.admission(of: peer, from: address) }
    func admission(of invitation: Invitation) -> InvitationDecision { room.admission(of: invitation) }
    func say(_ text: String) throws(GameError) { try room.say(text) }
    func remove(named name: String) throws(GameError) -> PlayerRemoval { try room.remove(named: name) }
    func readmit(named name: String) throws(GameError) -> [PlayerRemoval] { try room.readmit(named: name) }

    func observe(console: any Console, text: GameText, changed: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let (room, presenter, history, departed) = (room, presenter, history, departed)
        let me = host.id
        // The game as it stands when the host starts serving it: a resumed game says so.
        let view = room.rules.view(for: nil)
        let seatsHeld = room.players.count { room.isAway($0.id) }
        let opening = presenter.withLock { $0.lines(forHosting: view, resumedAt: room.resumedRound, seatsHeld: seatsHeld, to: text.reader) }
        console.print(text.screenLines(opening, as: "resumed", view))
        let reading = Task {
            // The list shows the round (and the range a game announces): a new one is announced.
            var announcedRound = room.round
            for await activity in room.activity {
                guard case .item(let item) = activity else {
                    if case .passwordRefusals(let refusals) = activity { console.print(text.passwordRefusals(refusals)) }
                    continue
                }
                switch item {
                case .joined(let joined):
                    departed.withLock { $0.removeAll { $0.id == joined.player.id } }
                    changed()
                case .left(let left):
                    departed.withLock { $0 = Array(($0.filter { $0.id != left.player.id } + [left.player]).suffix(Self.departedLimit)) }
                    changed()
                case .scores: changed()
                case .game(_, let event):
                    history.withLock { $0 = Array(($0 + [event]).suffix(Self.historyLimit)) }
                default: break
                }
                console.print(presenter.withLock { text.item(item, presenter: &$0, host: me) })
                if room.round != announcedRound {
                    announcedRound = room.round
                    changed()
                }
            }
        }
        return { reading.cancel() }
    }

    func players(text: GameText) -> ScreenLine {
        let players = room.players
        let gone = departed.withLock { $0 }.filter { player in !players.contains { $0.id == player.id } }
        var addresses: [UUID: String] = [:]
        for player in players + gone { addresses[player.id] = room.address(of: player.id) }
        return text.roomPlayers(
            players, gone: gone, scores: room.scores, presenter: presenter.withLock { $0 }, codes: verificationCodes, addresses: addresses,
            isAway: room.isAway)
    }

    func history(text: GameText) -> ScreenLine {
        let lines = presenter.withLock { $0 }.history(of: history.withLock { $0 }, to: text.reader)
        return ScreenLine(lines.isEmpty ? "Nothing has happened in the game yet." : text.presented(lines))
    }

    func scores(text: GameText) -> ScreenLine { text.scores(room.scores, of: room.players, presenter: presenter.withLock { $0 }) }

    func finalScores(text: GameText) -> ScreenLine { text.finalScores(room.scores, of: room.players, presenter: presenter.withLock { $0 }) }

    func gameCommand(_ line: String) -> [String]? {
        GameCommand.typed(line, among: Presenter.commands).map { $0.lines(room.rules.view(for: nil)) }
    }

    var gameHelp: GameHelp { .room(presenter.withLock { $0 }) }

    func newRound(range argument: String?) throws(GameError) {
        guard let argument else { return room.newRound() }
        try room.newRound(changing: { rules throws(GameError) in try rules.prepareRound(asked: argument) })
    }
}
