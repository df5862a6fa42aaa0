import Foundation
import Rooms

/// The rules of rock-paper-scissors: matches of the best of N throws, two players a match, each
/// throw sealed by both players before either is revealed.
///
/// Each round of the room is one match. Its two players are the two in the room who have waited
/// longest since they last played (newcomers first, then in the order they joined), so everyone
/// gets a turn; the others watch. With fewer than two players the match waits and begins when a
/// second player comes in.
///
/// Every throw goes: both players ``RPSMove/commit(digest:)``; once both have, both
/// ``RPSMove/reveal(hand:salt:)``. The host checks each reveal against its commitment and holds
/// the first until the second is in, then tells everyone both hands. Tied throws are played again
/// and do not count towards the best of N. A player who gives up their seat forfeits the match.
/// Those the throw waits for are ``awaited``: one who does not choose (or reveal) within the
/// room's turn time loses the throw; when neither does, the match ends without a winner.
public struct RPSRules: GameRules, Codable {
    public static let kind = GameKind(id: "rps", title: "rock-paper-scissors", messagePrefix: "rps.v1.")

    public let settings: RPSSettings
    /// Everyone in the room, in the order they joined.
    private(set) var roster: [PlayerRef] = []
    /// The number of the last match each player played.
    private var lastPlayed: [UUID: Int] = [:]
    /// The round the room last started; 0 before the first.
    private(set) var roundNumber = 0
    private(set) var match: Match?

    public init(settings: RPSSettings) {
        self.settings = settings
    }

    public mutating func startRound(_ number: Int, players: [PlayerRef]) -> [RPSEvent] {
        roundNumber = number
        roster = players
        match = nil
        return beginIfPossible() ?? [.waitingForSecondPlayer(number: number)]
    }

    public mutating func playerJoined(_ player: PlayerRef) -> [RPSEvent] {
        if !roster.contains(where: { $0.id == player.id }) { roster.append(player) }
        guard roundNumber > 0, match == nil else { return [] }
        return beginIfPossible() ?? []
    }

    public mutating func playerLeft(_ player: PlayerRef) -> [RPSEvent] {
        roster.removeAll { $0.id == player.id }
        lastPlayed[player.id] = nil
        guard var current = match, !current.isOver, let seat = current.seat(of: player) else { return [] }
        defer { match = current }
        return current.forfeit(seat: seat)
    }

    public mutating func apply(_ move: RPSMove, from player: PlayerRef) throws(MoveRefusal) -> MoveOutcome<RPSEvent> {
        guard var current = match, !current.isOver else { throw .matchOver }
        guard let seat = current.seat(of: player) else { throw .watching }
        let events: [RPSEvent]
        switch move {
        case .commit(let digest): events = try current.commit(digest, seat: seat)
        case .reveal(let hand, let salt): events = try current.reveal(hand, saltText: salt, seat: seat)
        }
        match = current
        return MoveOutcome(broadcast: events)
    }

    public var roundResult: RoundResult? {
        guard let match else { return nil }
        if let winner = match.winner { return RoundResult(winners: [winner]) }
        return match.abandoned ? .draw : nil
    }

    /// The players yet to choose, or once both have, yet to reveal.
    public var awaited: [PlayerRef] {
        guard let match else { return [] }
        return match.awaitedSeats.map { match.players[$0] }
    }

    /// The players who did not choose or reveal in time lose the throw (both: the match ends).
    public mutating func timedOut(_ players: [PlayerRef]) -> [RPSEvent] {
        guard var current = match else { return [] }
        let seats = current.awaitedSeats.filter { seat in players.contains { $0.id == current.players[seat].id } }
        defer { match = current }
        return current.timedOut(seats: seats)
    }

    /// Seats the two players who have waited longest and starts the match; nil with fewer than two.
    private mutating func beginIfPossible() -> [RPSEvent]? {
        guard roster.count >= 2 else { return nil }
        let order = roster.indices.sorted { (lastPlayed[roster[$0].id] ?? 0, $0) < (lastPlayed[roster[$1].id] ?? 0, $1) }
        let players = order.prefix(2).sorted().map { roster[$0] }
        for player in players { lastPlayed[player.id] = roundNumber }
        match = Match(number: roundNumber, players: players, winsNeeded: settings.winsNeeded)
        return [.matchStarted(number: roundNumber, players: players, bestOf: settings.bestOf)]
    }
}
