import Foundation
import Rooms
import Testing
import TicTacToe

@Suite("Moves the rules refuse change nothing", .timeLimit(.minutes(1)))
struct RefusalTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol

    func started() -> TicTacToeRules {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice, bob, carol])
        return rules
    }

    func expectRefused(_ rules: inout TicTacToeRules, _ square: Int, from player: PlayerRef, _ refusal: MoveRefusal) {
        let before = rules
        #expect(throws: refusal) { try rules.apply(.place(square: square), from: player) }
        #expect(rules.view(for: player) == before.view(for: player))
        #expect(rules.roundResult == before.roundResult)
    }

    @Test("O may not move first, and X may not move twice")
    func notYourTurn() throws {
        var rules = started()
        expectRefused(&rules, 5, from: bob, .notYourTurn)
        _ = try rules.apply(.place(square: 5), from: alice)
        expectRefused(&rules, 1, from: alice, .notYourTurn)
    }

    @Test("A taken square is refused, whoever took it")
    func squareTaken() throws {
        var rules = started()
        _ = try rules.apply(.place(square: 5), from: alice)
        expectRefused(&rules, 5, from: bob, .squareTaken)
        _ = try rules.apply(.place(square: 1), from: bob)
        expectRefused(&rules, 1, from: alice, .squareTaken)
    }

    @Test("Numbers outside 1–9 are no square", arguments: [0, 10, -1, Int.max, Int.min])
    func noSuchSquare(number: Int) {
        var rules = started()
        expectRefused(&rules, number, from: alice, .noSuchSquare)
    }

    @Test("A watcher, or a stranger, may not move")
    func watching() {
        var rules = started()
        expectRefused(&rules, 5, from: carol, .watching)
        expectRefused(&rules, 5, from: Players.dave, .watching)
    }

    @Test("Before the first round and after a round, nobody may move")
    func roundOver() throws {
        var rules = TicTacToeRules()
        expectRefused(&rules, 5, from: alice, .roundOver)
        rules = started()
        try rules.play([1, 4, 2, 5, 3])
        expectRefused(&rules, 9, from: bob, .roundOver)
        expectRefused(&rules, 9, from: carol, .roundOver)
    }

    @Test("A player alone at the board may not move yet")
    func waitingForOpponent() {
        var rules = TicTacToeRules()
        _ = rules.startRound(1, players: [alice])
        expectRefused(&rules, 5, from: alice, .waitingForOpponent)
    }

    @Test("Every refusal has a stable code and one sentence")
    func sentences() {
        let all: [MoveRefusal] = [.notYourTurn, .squareTaken, .noSuchSquare, .watching, .roundOver, .waitingForOpponent]
        #expect(all.map(\.code) == ["notYourTurn", "squareTaken", "noSuchSquare", "watching", "roundOver", "waitingForOpponent"])
        for refusal in all {
            #expect(refusal.message.hasSuffix("."))
            #expect(refusal.message.first?.isUppercase == true)
            #expect(refusal.description == refusal.message)
        }
    }
}
