import Foundation
import Rooms
import Testing

@testable import RockPaperScissors

@Suite("The terminal presenter: a word seals a hand, the program reveals it", .timeLimit(.minutes(1)))
struct PresenterTests {
    /// Alice's view of the match.
    func view(_ table: Table) -> RPSView { table.rules.view(for: alice) }

    @Test("A hand's name or first letter, in any case, commits its seal; other words are chat")
    func typing() throws {
        let table = try Table(players: [alice, bob])
        var presenter = RPSPresenter()
        for word in ["rock", "R", "Paper", "s"] {
            guard case .play(.commit(let digest)) = presenter.input(word, in: view(table)) else {
                Issue.record("“\(word)” did not commit")
                continue
            }
            #expect(digest.count == 64, "a SHA-256 in hex")
        }
        guard case .chat = presenter.input("rocks are nice", in: view(table)) else { Issue.record("chat was played"); return }
    }

    @Test("The hand is revealed by itself, once, when both have chosen; not before, and a hand typed out of turn is answered")
    func revealsOnce() throws {
        var table = try Table(players: [alice, bob])
        var presenter = RPSPresenter()
        guard case .play(let commit) = presenter.input("paper", in: view(table)) else { Issue.record("not played"); return }
        try table.send(commit, from: alice)
        #expect(presenter.automaticMove(in: view(table)) == nil, "bob has not chosen yet")
        guard case .answer(let sentence) = presenter.input("rock", in: view(table)) else { Issue.record("a second hand was played"); return }
        #expect(sentence.hasPrefix("Not now: "))
        try table.send(SealedHand(hand: .rock).commitMove, from: bob)
        let reveal = presenter.automaticMove(in: view(table))
        guard case .reveal(let hand, _)? = reveal else { Issue.record("no reveal: \(String(describing: reveal))"); return }
        #expect(hand == .paper)
        #expect(presenter.automaticMove(in: view(table)) == nil, "revealed once")
    }
}
