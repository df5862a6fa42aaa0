import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("Whatever is played, every card is held by exactly one player", .timeLimit(.minutes(1)))
struct InvariantTests {
    let everyone = [Players.alice, Players.bob, Players.carol, Players.dave]

    /// Checks the round's cards and turn, returning a description of what is wrong, if anything.
    func fault(in rules: SnapRules) -> String? {
        guard case .playing(let next) = rules.view(for: nil).phase else {
            if case .won(let winner) = rules.view(for: nil).phase, rules.roundResult?.winners != [winner] { return "no result for \(winner.name)" }
            return rules.heldCards.isEmpty || rules.heldCards.count == 52 ? nil : "\(rules.heldCards.count) cards held after the round"
        }
        let held = rules.heldCards
        guard held.count == 52, Set(held) == Set(Card.deck) else { return "\(held.count) cards held, \(Set(held).count) different" }
        guard let turn = rules.seat(of: next), rules.hands[turn].holdsCards else { return "\(next.name) is to turn and holds no cards" }
        guard rules.hands.filter(\.holdsCards).count >= 2, rules.roundResult == nil else { return "the round goes on with one player holding cards" }
        return nil
    }

    @Test("Random moves, time-outs and departures from many seeds lose no card and copy none")
    func fiftyTwoCards() {
        var chooser = SplitMix64(seed: 2024)
        var finished = 0
        for seed in UInt64(0)..<100 {
            let players = Array(everyone.prefix(2 + Int(seed % 3)))
            var rules = SnapRules.dealt(players, seed: seed)
            for step in 0..<300 where rules.roundResult == nil {
                let before = rules
                let roll = chooser.next() % 100
                let anyone = players[Int(chooser.next() % UInt64(players.count))]
                switch roll {
                case 0..<60: _ = try? rules.turnForWhoeverIsNext()
                case 60..<96:
                    do { try rules.play(.snap, from: anyone) } catch { #expect(rules == before, "a refused move changed nothing") }
                case 96..<99: _ = rules.timedOut(rules.awaited)
                default: _ = rules.playerLeft(anyone)
                }
                if let fault = fault(in: rules) {
                    Issue.record("seed \(seed), step \(step): \(fault)")
                    return
                }
            }
            if rules.roundResult != nil { finished += 1 }
        }
        #expect(finished > 0, "some rounds are played to the end")
    }
}
