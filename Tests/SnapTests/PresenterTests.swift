import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("The terminal presenter: t turns, s snaps, the piles shown when they change", .timeLimit(.minutes(1)))
struct PresenterTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol

    @Test("t and turn turn a card, s and snap call snap, in any case; everything else is chat")
    func typing() {
        var presenter = SnapPresenter()
        for line in ["t", "T", "turn", "TURN", "Turn"] {
            guard case .play(.turn) = presenter.input(line, in: nil) else { Issue.record("\(line) did not turn"); continue }
        }
        for line in ["s", "S", "snap", "SNAP", "Snap"] {
            guard case .play(.snap) = presenter.input(line, in: nil) else { Issue.record("\(line) did not snap"); continue }
        }
        for line in ["snap!", "ts", "turn over", "hello", "7"] {
            guard case .chat = presenter.input(line, in: nil) else { Issue.record("\(line) was not chat"); continue }
        }
    }

    @Test("The prompt, the help and the banner")
    func words() {
        let presenter = SnapPresenter()
        #expect(presenter.prompt == "snap> ")
        for words in ["type t", "type s", "a wrong snap costs you a card to each other player", "anything else is chat"] {
            #expect(presenter.howToPlay.contains(words))
        }
        #expect(SnapPresenter.summary(of: SnapRules()) == "Snap (the first to call snap on a matching pair takes the piles)")
    }

    @Test("The piles are shown when the deal or a move changes them, with the cue when the turn comes to the viewer")
    func viewLines() throws {
        var presenter = SnapPresenter()
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦ 5♦")])
        let started = rules.view(for: alice)
        #expect(presenter.plainLines(for: started, before: nil) == [
            "Piles: alice nothing showing (holds 2), bob nothing showing (holds 2).", SnapPresenter.yourTurn,
        ])
        #expect(presenter.plainLines(for: started, before: started).isEmpty)
        #expect(presenter.plainLines(for: rules.view(for: bob), before: nil).last == "Round 1: alice's turn.")
        let bobBefore = rules.view(for: bob)
        try rules.play(.turn, from: alice)
        #expect(presenter.plainLines(for: rules.view(for: alice), before: started) == [
            "Piles: alice 3♠ (holds 2), bob nothing showing (holds 2).", "Round 1: bob's turn.",
        ])
        #expect(presenter.plainLines(for: rules.view(for: bob), before: bobBefore).last == SnapPresenter.yourTurn)
        let aliceBefore = rules.view(for: alice)
        try rules.play(.snap, from: alice)
        #expect(presenter.plainLines(for: rules.view(for: alice), before: aliceBefore) == ["Piles: alice 3♠ (holds 1), bob nothing showing (holds 3)."])
    }

    @Test("/table shows whose turn it is and every player's cards")
    func tableCommand() throws {
        var rules = SnapRules.arranged([holding(alice, stack: "2♠ 3♠"), holding(bob, stack: "4♦ 5♦"), holding(carol)])
        try rules.play(.turn, from: alice)
        let table = try #require(GameCommand.typed("/table", among: SnapPresenter.commands))
        #expect(table.help == "the piles, and whose turn it is")
        #expect(table.lines(rules.view(for: bob)) == [
            "Round 1: your turn to turn a card over.", "  alice: 1 face down, 1 face up, 3♠ on top", "  bob (you): 2 face down, 0 face up",
            "  carol: out of cards",
        ])
        #expect(table.lines(rules.view(for: Players.dave)).first == "Round 1: bob's turn. You are watching.")
        #expect(GameCommand.typed("/tables", among: SnapPresenter.commands) == nil)
    }
}
