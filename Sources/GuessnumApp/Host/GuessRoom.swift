import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText

/// Guess-the-number as the host's screen drives it: its ``GameMaster``, and what the host
/// reads of it.
final class GuessRoom: HostedRoom {
    let master: GameMaster
    private let players: PlayerListViewModel

    init(master: GameMaster) {
        self.master = master
        players = PlayerListViewModel(sessionEvents: master.session.events, gameEvents: master.events)
        // A resumed game has players (away in held seats) before any event says so.
        players.seat(master.players, round: master.roundNumber)
    }

    var session: Session { master.session }
    var host: PlayerRef { master.host }
    var summary: String { "numbers \(master.range)" }
    var maximumPlayers: Int { master.configuration.maximumPlayers }
    var removalPeriod: Duration { master.configuration.removalPeriod }
    var isPrivate: Bool { master.isPrivate }
    var playerCount: Int { master.playerCount }
    var discoveryInfo: DiscoveryInfo { master.advertisement.discoveryInfo }

    func start() { master.start() }
    func stop() { master.stop() }
    func admission(of peer: PeerID, from address: String?) -> InvitationDecision { master.admission(of: peer, from: address) }
    func admission(of invitation: Invitation) -> InvitationDecision { master.admission(of: invitation) }
    func say(_ text: String) throws(GameError) { try master.sendChat(text) }
    func remove(named name: String) throws(GameError) -> PlayerRemoval { try master.remove(named: name) }
    func readmit(named name: String) throws(GameError) -> [PlayerRemoval] { try master.readmit(named: name) }

    func observe(console: any Console, text: GameText, changed: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let events = master.events
        let master = master
        let resumeAnnounced = Protected(false)
        let observations = ObservationBag()
        observations.add(contentsOf: [
            events.observe(.verdict) { console.print(text.screenLine(GuessText.verdict($0, to: text.reader))) },
            events.observe(.chat) { chat in if !text.isMe(chat.from) { console.print(text.chat(chat, fromHost: false)) } },
            events.observe(.playerJoined) { console.print(text.joined($0)); changed() },
            events.observe(.playerLeft) { console.print(text.left($0)); changed() },
            events.observe(.playerAway) { console.print(text.away($0)) },
            events.observe(.playerBack) { console.print(text.back($0)) },
            events.observe(.playerRenamed) { console.print(text.renamed($0)) },
            events.observe(.passwordRefusals) { console.print(text.passwordRefusals($0)) },
            events.observe(.roundWon) { console.print(text.screenLine(GuessText.roundWon($0, to: text.reader))) },
            events.observe(.roundStarted) { started in
                // The first one of a resumed game is the round it goes on with, not a new one.
                let resumed = master.isResumed && resumeAnnounced.withLock { announced in defer { announced = true }; return !announced }
                let line = resumed ? GuessText.resumed(started, seatsHeld: master.players.count { $0.isAway }) : GuessText.roundStarted(started)
                console.print(text.screenLine(line))
                changed()
            },
        ])
        return { observations.cancelAll() }
    }

    func players(text: GameText) -> ScreenLine {
        let codes = verificationCodes
        let rows = players.rows.map { row in
            PlayerTableRow(
                player: PlayerRef(id: row.id, name: row.name), state: row.presence.rawValue, wins: row.wins, column: String(row.guessesThisRound),
                code: codes[row.id], address: master.address(of: row.id))
        }
        return text.playerTable(rows, column: GuessPresenter.playerColumn)
    }

    func history(text: GameText) -> ScreenLine {
        let round = master.currentRound
        return text.screenLine(GuessText.history(round.history, round: round.number, previous: master.previousRound, to: text.reader))
    }

    func scores(text: GameText) -> ScreenLine {
        let entries = master.scoreboard.ranked
        return text.scores(GuessText.scoreboard(entries), data: entries)
    }

    func finalScores(text: GameText) -> ScreenLine {
        let entries = master.scoreboard.ranked
        return text.finalScores(GuessText.scoreboard(entries), data: entries)
    }

    func gameCommand(_ line: String) -> [String]? { nil }
    var gameHelp: GameHelp { .guessTheNumber }

    func newRound(range rangeText: String?) throws(GameError) {
        let range = try rangeText.map { text throws(GameError) in try GuessRange(parsing: text) }
        try master.newRound(range: range)
    }
}
