import Foundation
import Multipeer
@testable import Rooms
import Testing
import TicTacToe

/// The room times the players its game waits for, on the clock it is given: a warning with
/// 10 s left, the game's rule when the time is up, a fresh turn after each move.
@Suite("Turn clocks in a room", .timeLimit(.minutes(1)))
struct TurnClockTableTests {
    typealias Table = RoomTable<TicTacToeRules>
    let host = PlayerRef(id: UUID(), name: "alice")
    let start = ContinuousClock.now

    func table(turnTime: Duration?) throws -> (Table, x: PeerID, o: PeerID) {
        var configuration = RoomConfiguration()
        configuration.turnTime = turnTime
        var table = Table(rules: TicTacToeRules(), configuration: configuration, host: host, moveThrottle: Throttle(rate: 20, burst: 5))
        table.startRound(at: start)
        let peers = try ["bob", "carol"].map { try PeerID(displayName: $0) }
        for peer in peers { _ = table.join(peer, at: start) }
        let x = try #require(table.rules.view(for: nil).x)
        return (table, x: try #require(peers.first { $0.identity == x.id }), o: try #require(peers.first { $0.identity != x.id }))
    }

    /// The items numbered since `sequence`, taken off the table's next flush.
    func items(after sequence: UInt64, in table: inout Table) -> [RoomItem<TicTacToeRules>] {
        table.takeFlush().batch?.items.filter { ($0.sequence ?? 0) > sequence } ?? []
    }

    @Test("A mover who never moves is warned with 10 s left and loses the round at 60 s; the other player is credited")
    func stalledTurn() throws {
        var (table, x, o) = try table(turnTime: .seconds(60))
        _ = table.takeFlush()
        let before = table.lastSequence
        #expect(table.timeTurns(at: start + .seconds(49)) == nil)
        #expect(table.lastSequence == before, "nothing to say yet")
        #expect(table.timeTurns(at: start + .seconds(50)) == nil)
        let xRef = PlayerRef(id: x.identity, name: x.displayName)
        #expect(items(after: before, in: &table) == [.turnClock(TurnClockNotice(sequence: before + 1, player: xRef, secondsLeft: 10))])
        #expect(table.timeTurns(at: start + .seconds(55)) == nil, "warned once")
        let oRef = PlayerRef(id: o.identity, name: o.displayName)
        #expect(table.timeTurns(at: start + .seconds(60)) == RoundResult(winners: [oRef]))
        #expect(table.scores.map(\.player) == [oRef])
        let told = items(after: before + 1, in: &table)
        #expect(told.first == .game(sequence: before + 2, event: .outOfTime(player: xRef, winner: oRef)), "\(told)")
        #expect(table.timeTurns(at: start + .seconds(600)) == nil, "between rounds nobody is timed")
    }

    @Test("Each move starts the next player's clock afresh; without a turn time nobody is timed")
    func freshTurns() throws {
        var (table, x, o) = try table(turnTime: .seconds(60))
        _ = table.move(.place(square: 5), from: x.identity, at: start + .seconds(59))
        #expect(table.timeTurns(at: start + .seconds(100)) == nil, "O's turn began at 59 s")
        let oRef = PlayerRef(id: o.identity, name: o.displayName)
        #expect(table.rules.awaited == [oRef])
        #expect(table.timeTurns(at: start + .seconds(119)) != nil, "and ends at 119 s")

        var (untimed, _, _) = try self.table(turnTime: nil)
        #expect(untimed.timeTurns(at: start + .seconds(3600)) == nil)
        #expect(untimed.rules.roundResult == nil)
    }
}
