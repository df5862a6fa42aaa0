import Foundation
import Rooms
import Testing

@testable import RockPaperScissors

@Suite("Text: one sentence per event", .timeLimit(.minutes(1)))
struct TextTests {
    @Test("A whole match reads as sentences")
    func matchSentences() throws {
        var table = try Table()
        try table.playThrow(.rock, .scissors)
        try table.playThrow(.paper, .paper)
        try table.playThrow(.rock, .scissors)
        let lines = table.events.map(RPSText.sentence(for:))
        #expect(lines[0] == "Match 1: alice against bob, best of 3.")
        #expect(lines[1] == "alice has chosen.")
        #expect(lines[3] == "alice and bob have both chosen.")
        #expect(lines[4] == "alice has revealed.")
        #expect(lines[5] == "alice: rock, bob: scissors — alice takes the throw (1–0).")
        #expect(lines[10] == "alice: paper, bob: paper — a tie (1–0).")
        #expect(lines[15] == "alice: rock, bob: scissors — alice takes the throw (2–0).")
        #expect(lines[16] == "alice wins the match 2–0.")
    }

    @Test("The winner's score comes first; a forfeit and a wait say what happened")
    func otherSentences() throws {
        var table = try Table()
        try table.playThrow(.rock, .paper)
        try table.playThrow(.scissors, .paper)
        try table.playThrow(.scissors, .rock)
        #expect(RPSText.sentence(for: table.events.last!) == "bob wins the match 2–1.")
        var forfeit = try Table()
        try forfeit.playThrow(.rock, .paper)
        #expect(forfeit.rules.playerLeft(bob).map(RPSText.sentence(for:)) == ["bob gave up their seat: alice wins the match 0–1."])
        #expect(RPSText.sentence(for: .waitingForSecondPlayer(number: 2)) == "Match 2 waits for a second player.")
    }

    @Test("Names are printed safely")
    func safeNames() {
        let mallory = PlayerRef(id: UUID(), name: "mal\u{1B}[2Jlory")
        #expect(!RPSText.sentence(for: .committed(player: mallory)).contains("\u{1B}"))
    }

    @Test("Prompts follow the view's next step")
    func prompts() throws {
        var table = try Table()
        #expect(RPSText.prompt(for: table.rules.view(for: alice)) == "Choose rock, paper or scissors.")
        #expect(RPSText.prompt(for: table.rules.view(for: carol)) == "You are watching.")
        try table.send(SealedHand(hand: .rock).commitMove, from: alice)
        #expect(RPSText.prompt(for: table.rules.view(for: alice)) == "Wait for the other player.")
        try table.send(SealedHand(hand: .rock).commitMove, from: bob)
        #expect(RPSText.prompt(for: table.rules.view(for: bob)) == "Both have chosen: reveal your hand.")
    }
}
