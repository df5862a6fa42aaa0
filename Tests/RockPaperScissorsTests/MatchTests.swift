import Rooms
import Testing

@testable import RockPaperScissors

@Suite("Matches: best of N, ties, forfeits, who plays", .timeLimit(.minutes(1)))
struct MatchTests {
    @Test("A whole match of best of 3: alice wins 2–1 and the round result names her")
    func wholeMatch() throws {
        var table = try Table()
        #expect(table.events == [.matchStarted(number: 1, players: [alice, bob], bestOf: 3)])
        #expect(table.seated == [alice, bob])
        #expect(table.rules.roundResult == nil)

        let first = try table.playThrow(.rock, .scissors)
        guard case .throwRevealed(let result) = first.last else { Issue.record("no throw revealed"); return }
        #expect(result.winner == alice && result.hands.map(\.hand) == [.rock, .scissors])
        #expect(result.score.map(\.wins) == [1, 0])
        try table.playThrow(.rock, .paper, secondRevealsFirst: true)
        #expect(table.rules.roundResult == nil)
        let last = try table.playThrow(.scissors, .paper)
        #expect(last.last == .matchWon(winner: alice, score: [SeatScore(player: alice, wins: 2), SeatScore(player: bob, wins: 1)]))
        #expect(table.rules.roundResult == RoundResult(winners: [alice]))

        let view = table.rules.view(for: bob)
        #expect(view.phase == .over && view.winner == alice && view.next == .wait && view.role == .player)
        #expect(view.seats.map(\.wins) == [2, 1] && view.throwNumber == 3)
        #expect(throws: MoveRefusal.matchOver) { try table.send(SealedHand(hand: .rock).commitMove, from: alice) }
    }

    @Test("The events of one throw come in order: committed, committed, both committed, revealed, throw revealed")
    func throwEvents() throws {
        var table = try Table()
        let events = try table.playThrow(.paper, .rock)
        #expect(events.count == 5)
        #expect(events[0] == .committed(player: alice) && events[1] == .committed(player: bob))
        guard case .bothCommitted(1, let commitments) = events[2], case .throwRevealed(let result) = events[4] else {
            Issue.record("unexpected events \(events)"); return
        }
        #expect(events[3] == .revealed(player: alice))
        #expect(commitments.map(\.player) == [alice, bob])
        for (commitment, hand) in zip(commitments, result.hands) {
            #expect(commitment.commitment.isOpened(by: hand.hand, salt: hand.salt), "anyone can check a reveal against its commitment")
        }
    }

    @Test("A tied throw scores nobody and is played again; ties do not count towards the best of N")
    func ties() throws {
        var table = try Table(bestOf: 1)
        for hand in Hand.allCases {
            let events = try table.playThrow(hand, hand)
            guard case .throwRevealed(let result) = events.last else { Issue.record("no throw"); return }
            #expect(result.winner == nil && result.score.map(\.wins) == [0, 0])
            #expect(table.rules.roundResult == nil)
        }
        #expect(table.rules.view(for: alice).throwNumber == 4)
        #expect(table.rules.view(for: alice).next == .commit)
        try table.playThrow(.rock, .paper)
        #expect(table.rules.roundResult == RoundResult(winners: [bob]))
    }

    @Test("Best of 1: a single won throw takes the match")
    func bestOfOne() throws {
        var table = try Table(bestOf: 1)
        let events = try table.playThrow(.scissors, .rock)
        #expect(events.last == .matchWon(winner: bob, score: [SeatScore(player: alice, wins: 0), SeatScore(player: bob, wins: 1)]))
    }

    @Test("Best of 5: three wins are needed, and the loser's wins count in the final score")
    func bestOfFive() throws {
        var table = try Table(bestOf: 5)
        for (first, second) in [(Hand.rock, Hand.scissors), (.rock, .paper), (.paper, .paper), (.paper, .rock), (.rock, .paper)] {
            try table.playThrow(first, second)
            #expect(table.rules.roundResult == nil)
        }
        let events = try table.playThrow(.scissors, .paper)
        #expect(events.last == .matchWon(winner: alice, score: [SeatScore(player: alice, wins: 3), SeatScore(player: bob, wins: 2)]))
        #expect(table.rules.view(for: nil).throwNumber == 6)
    }

    @Test("A match player who gives up their seat forfeits: the other wins with the score so far")
    func forfeit() throws {
        var table = try Table()
        try table.playThrow(.rock, .paper)
        try table.send(SealedHand(hand: .rock).commitMove, from: alice)
        let events = table.rules.playerLeft(bob)
        #expect(events == [.forfeit(leaver: bob, winner: alice, score: [SeatScore(player: alice, wins: 0), SeatScore(player: bob, wins: 1)])])
        #expect(table.rules.roundResult == RoundResult(winners: [alice]))
        #expect(table.rules.playerLeft(alice).isEmpty, "a match already won cannot be forfeited")
        #expect(table.rules.roundResult == RoundResult(winners: [alice]))
    }

    @Test("A watcher leaving or joining changes nothing in the match")
    func watchersComeAndGo() throws {
        var table = try Table()
        let dave = PlayerRef(id: .init(), name: "dave")
        #expect(table.rules.playerJoined(dave).isEmpty)
        #expect(table.rules.playerLeft(carol).isEmpty)
        #expect(table.rules.view(for: dave).role == .watcher && table.rules.view(for: dave).next == .watch)
        try table.playThrow(.rock, .scissors)
        #expect(table.rules.view(for: nil).seats.map(\.wins) == [1, 0])
    }

    @Test("Each match seats the two who have waited longest since they last played")
    func everyoneGetsATurn() throws {
        var table = try Table(bestOf: 1)
        try table.playThrow(.rock, .scissors)
        table.events = table.rules.startRound(2, players: [alice, bob, carol])
        #expect(table.seated == [alice, carol], "carol never played; alice and bob both played match 1, alice joined first")
        try table.playThrow(.rock, .scissors)
        table.events = table.rules.startRound(3, players: [alice, bob, carol])
        #expect(table.seated == [alice, bob], "bob last played in match 1; alice and carol both in match 2, and alice joined first")
    }

    @Test("With one player the match waits, and begins when a second comes in")
    func waitsForSecondPlayer() throws {
        var table = try Table(players: [alice], round: 4)
        #expect(table.events == [.waitingForSecondPlayer(number: 4)])
        #expect(table.rules.view(for: alice).phase == .waitingForPlayers && table.rules.view(for: alice).next == .wait)
        #expect(throws: MoveRefusal.matchOver) { try table.send(SealedHand(hand: .rock).commitMove, from: alice) }
        #expect(table.rules.playerJoined(bob) == [.matchStarted(number: 4, players: [alice, bob], bestOf: 3)])
        #expect(table.rules.view(for: bob).next == .commit)
        try table.playThrow(.rock, .scissors)
    }

    @Test("Before the first round nobody plays, and a newcomer starts nothing")
    func beforeFirstRound() throws {
        var rules = RPSRules(settings: RPSSettings())
        #expect(rules.playerJoined(alice).isEmpty && rules.playerJoined(bob).isEmpty)
        #expect(rules.view(for: alice).phase == .notStarted && rules.view(for: nil).match == nil)
        #expect(rules.roundResult == nil)
        #expect(RPSRules.kind == GameKind(id: "rps", title: "rock-paper-scissors", messagePrefix: "rps.v1."))
    }
}
