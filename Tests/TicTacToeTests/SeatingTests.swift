import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("Who takes the board, who waits, who leaves", .timeLimit(.minutes(1)))
struct SeatingTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol, dave = Players.dave

    @Test("Two players play every round and X alternates between them")
    func twoAlternate() throws {
        var rules = TicTacToeRules()
        var xs: [PlayerRef?] = []
        for round in 1...4 {
            _ = rules.startRound(round, players: [alice, bob])
            xs.append(rules.pair.x)
            try rules.play([1, 4, 2, 5, 3])
        }
        #expect(xs == [alice, bob, alice, bob])
    }

    @Test("With three, everyone gets turns: the two who waited longest play")
    func threeRotate() {
        var rules = TicTacToeRules()
        var pairs: [[PlayerRef?]] = []
        for round in 1...6 {
            _ = rules.startRound(round, players: [alice, bob, carol])
            pairs.append([rules.pair.x, rules.pair.o])
        }
        #expect(pairs == [[alice, bob], [carol, alice], [bob, carol], [alice, bob], [carol, alice], [bob, carol]])
    }

    @Test("A newcomer plays before the two who played the latest round")
    func newcomerWaits() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob, carol])
        #expect(rules.playerJoined(dave) == [])
        _ = rules.startRound(2, players: [alice, bob, carol, dave])
        #expect(rules.pair.x == carol && rules.pair.o == dave)
        _ = rules.startRound(3, players: [alice, bob, carol, dave])
        #expect(Set([rules.pair.x, rules.pair.o]) == Set([alice, bob]))
    }

    @Test("Someone who joins while two play takes the board next round")
    func joinDuringRound() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob])
        #expect(rules.playerJoined(carol) == [])
        _ = rules.startRound(2, players: [alice, bob, carol])
        #expect(rules.pair.x == carol && rules.pair.o == alice)
        _ = rules.startRound(3, players: [alice, bob, carol, dave])
        #expect(rules.pair.x == bob && rules.pair.o == dave)
    }

    @Test("One player waits for a second; a newcomer fills the empty side and the game begins")
    func waitsForSecond() throws {
        var rules = TicTacToeRules()
        #expect(rules.startRound(1, players: [alice]) == [.waiting(round: 1, player: alice)])
        #expect(rules.roundResult == nil)
        #expect(rules.view(for: alice).phase == .waiting)
        #expect(rules.view(for: alice).role == .watching)
        #expect(rules.playerJoined(bob) == [.roundStarted(round: 1, x: alice, o: bob)])
        #expect(rules.view(for: bob).role == .o)
        try rules.play([1, 4, 2, 5, 3])
        #expect(rules.roundResult?.winners == [alice])
    }

    @Test("An empty room waits for two players, one at a time")
    func emptyRoom() {
        var rules = TicTacToeRules()
        #expect(rules.startRound(1, players: []) == [.waiting(round: 1, player: nil)])
        #expect(rules.playerJoined(alice) == [.waiting(round: 1, player: alice)])
        #expect(rules.playerJoined(alice) == [.waiting(round: 1, player: alice)])
        #expect(rules.playerJoined(bob) == [.roundStarted(round: 1, x: alice, o: bob)])
    }

    @Test("Joining before the first round starts nothing")
    func joinBeforeFirstRound() {
        var rules = TicTacToeRules()
        #expect(rules.playerJoined(alice) == [])
        #expect(rules.playerJoined(bob) == [])
        #expect(rules.view(for: nil).round == 0)
        #expect(rules.startRound(1, players: [alice, bob]) == [.roundStarted(round: 1, x: alice, o: bob)])
    }

    @Test("A board player leaving mid-round forfeits: the other wins", arguments: [true, false])
    func forfeit(xLeaves: Bool) throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob, carol])
        try rules.play([5])
        let (leaver, winner) = xLeaves ? (alice, bob) : (bob, alice)
        #expect(rules.playerLeft(leaver) == [.forfeited(leaver: leaver, winner: winner)])
        #expect(rules.roundResult == RoundResult(winners: [winner]))
        #expect(rules.view(for: winner).phase == .forfeited(winner: xLeaves ? .o : .x))
        #expect(throws: MoveRefusal.roundOver) { try rules.apply(.place(square: 1), from: winner) }
        _ = rules.startRound(2, players: [winner, carol])
        #expect(Set([rules.pair.x, rules.pair.o]) == Set([winner, carol]))
    }

    @Test("A watcher leaving, or a player leaving after the round, changes nothing on the board")
    func quietLeaves() throws {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob, carol])
        #expect(rules.playerLeft(carol) == [])
        #expect(rules.roundResult == nil)
        try rules.play([1, 4, 2, 5, 3])
        #expect(rules.playerLeft(bob) == [])
        #expect(rules.roundResult?.winners == [alice])
        #expect(rules.startRound(2, players: [alice]) == [.waiting(round: 2, player: alice)])
    }

    @Test("The waiting player leaving leaves the round waiting for two")
    func waitingPlayerLeaves() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice])
        #expect(rules.playerLeft(alice) == [])
        #expect(rules.playerJoined(bob) == [.waiting(round: 1, player: bob)])
        #expect(rules.playerJoined(carol) == [.roundStarted(round: 1, x: bob, o: carol)])
    }

    @Test("The room's list decides who is present, under their current names")
    func reconcile() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob, carol])
        let renamed = PlayerRef(id: carol.id, name: "carol (2)")
        #expect(rules.startRound(2, players: [renamed, dave]) == [.roundStarted(round: 2, x: renamed, o: dave)])
    }
}
