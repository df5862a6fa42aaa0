import Rooms
import Testing

@testable import RockPaperScissors

@Suite("Refused moves: each with its code and a sentence", .timeLimit(.minutes(1)))
struct RefusalTests {
    @Test("Every refusal has a stable code and one sentence")
    func sentences() {
        let all: [MoveRefusal] = [.watching, .alreadyCommitted, .revealTooEarly, .alreadyRevealed, .revealMismatch, .malformedCommitment, .matchOver]
        #expect(all.map(\.code) == ["watching", "alreadyCommitted", "revealTooEarly", "alreadyRevealed", "revealMismatch", "malformedCommitment", "matchOver"])
        for refusal in all { #expect(refusal.message.hasSuffix(".") && refusal.message.first?.isUppercase == true) }
    }

    @Test("A watcher's moves are refused")
    func watcher() throws {
        var table = try Table()
        #expect(throws: MoveRefusal.watching) { try table.send(SealedHand(hand: .rock).commitMove, from: carol) }
        #expect(throws: MoveRefusal.watching) { try table.send(SealedHand(hand: .rock).revealMove, from: carol) }
    }

    @Test("Committing twice to one throw is refused, and the first commitment stands")
    func commitTwice() throws {
        var table = try Table()
        let first = SealedHand(hand: .rock)
        try table.send(first.commitMove, from: alice)
        #expect(throws: MoveRefusal.alreadyCommitted) { try table.send(SealedHand(hand: .paper).commitMove, from: alice) }
        try table.send(SealedHand(hand: .scissors).commitMove, from: bob)
        #expect(throws: MoveRefusal.revealMismatch) { try table.send(SealedHand(hand: .paper).revealMove, from: alice) }
        try table.send(first.revealMove, from: alice)
    }

    @Test("Revealing before both have committed is refused, even with the right opening")
    func revealTooEarly() throws {
        var table = try Table()
        let mine = SealedHand(hand: .rock)
        #expect(throws: MoveRefusal.revealTooEarly) { try table.send(mine.revealMove, from: alice) }
        try table.send(mine.commitMove, from: alice)
        #expect(throws: MoveRefusal.revealTooEarly) { try table.send(mine.revealMove, from: alice) }
        #expect(table.events.count == 2, "matchStarted and alice's commitment only")
    }

    @Test("Revealing twice is refused")
    func revealTwice() throws {
        var table = try Table()
        let mine = SealedHand(hand: .rock)
        try table.send(mine.commitMove, from: alice)
        try table.send(SealedHand(hand: .rock).commitMove, from: bob)
        try table.send(mine.revealMove, from: alice)
        #expect(throws: MoveRefusal.alreadyRevealed) { try table.send(mine.revealMove, from: alice) }
    }

    @Test("A commitment that is not 64 lowercase hex digits is refused", arguments: [
        "", "abc", String(repeating: "0", count: 63), String(repeating: "0", count: 65), String(repeating: "A", count: 64),
        String(repeating: "g", count: 64), String(repeating: "é", count: 32),
    ])
    func malformedCommitment(digest: String) throws {
        var table = try Table()
        #expect(throws: MoveRefusal.malformedCommitment) { try table.send(.commit(digest: digest), from: alice) }
        #expect(table.rules.view(for: nil).seats.allSatisfy { !$0.committed })
    }

    @Test("Moves after the match is won are refused")
    func afterTheMatch() throws {
        var table = try Table(bestOf: 1)
        try table.playThrow(.paper, .rock)
        #expect(throws: MoveRefusal.matchOver) { try table.send(SealedHand(hand: .rock).commitMove, from: bob) }
        #expect(throws: MoveRefusal.matchOver) { try table.send(SealedHand(hand: .rock).commitMove, from: carol) }
    }

    @Test("Settings outside odd 1–9 are refused with a sentence; the valid ones are accepted", arguments: [-1, 0, 2, 4, 10, 11, Int.max])
    func invalidSettings(bestOf: Int) {
        #expect(throws: RPSSettingsError.invalidBestOf(bestOf)) { try RPSSettings(bestOf: bestOf) }
        #expect(RPSSettingsError.invalidBestOf(bestOf).message.contains("odd number from 1 to 9"))
        #expect(RPSSettingsError.invalidBestOf(bestOf).code == "invalidBestOf")
    }

    @Test("Odd lengths from 1 to 9 are accepted; 3 is the default", arguments: [1, 3, 5, 7, 9])
    func validSettings(bestOf: Int) throws {
        #expect(try RPSSettings(bestOf: bestOf).winsNeeded == (bestOf + 1) / 2)
        #expect(RPSSettings().bestOf == 3)
    }
}
