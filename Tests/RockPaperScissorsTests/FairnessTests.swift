import Rooms
import Testing

@testable import RockPaperScissors

@Suite("Commit, then reveal: nobody sees a hand early, nobody changes theirs", .timeLimit(.minutes(1)))
struct FairnessTests {
    @Test("A commitment is SHA-256 over the 32-byte salt then the hand's byte (vectors from Python's hashlib)", arguments: [
        (Hand.rock, "77317d8515db7c82febfc066278603efc3f844e90cd8782354d73917021c4131"),
        (.paper, "c069afb8eb0ad79337d878b07f0d188e09ba6cf3447efdc1fb8681e10e7dc802"),
        (.scissors, "142a87bb6187710951c1cb3eaef23140869bd546a2cc936ca21819b3c5cf724c"),
    ])
    func commitmentBytes(hand: Hand, digest: String) throws {
        let salt = try #require(HandSalt(rawValue: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
        #expect(HandCommitment.sealedBytes(hand: hand, salt: salt) == Array(0..<32) + [hand.committedByte])
        #expect(HandCommitment(hand: hand, salt: salt).rawValue == digest)
        #expect(HandCommitment(hand: hand, salt: salt).isOpened(by: hand, salt: salt))
    }

    @Test("Sealed hands get a fresh salt each time")
    func freshSalts() {
        let salts = Set((0..<20).map { _ in SealedHand(hand: .rock).salt })
        #expect(salts.count == 20)
        let sealed = SealedHand(hand: .paper)
        #expect(sealed.commitMove == .commit(digest: sealed.commitment.rawValue))
        #expect(sealed.revealMove == .reveal(hand: .paper, salt: sealed.salt.rawValue))
    }

    @Test("A reveal with the wrong salt or another hand is refused and changes nothing; the honest reveal is then accepted")
    func dishonestRevealRefused() throws {
        var table = try Table()
        var generator = SeededGenerator(seed: 5)
        let mine = SealedHand(hand: .rock, using: &generator)
        let theirs = SealedHand(hand: .paper, using: &generator)
        try table.send(mine.commitMove, from: alice)
        try table.send(theirs.commitMove, from: bob)
        try table.send(theirs.revealMove, from: bob)
        let before = table.rules
        let otherSalt = HandSalt.random(using: &generator).rawValue
        for cheat in [RPSMove.reveal(hand: .scissors, salt: mine.salt.rawValue), .reveal(hand: .rock, salt: otherSalt), .reveal(hand: .rock, salt: "nonsense")] {
            #expect(throws: MoveRefusal.revealMismatch) { try table.send(cheat, from: alice) }
            #expect(table.rules.view(for: alice) == before.view(for: alice), "a wrong opening changes nothing")
        }
        #expect(table.rules.view(for: alice).next == .reveal)
        try table.send(mine.revealMove, from: alice)
        guard case .throwRevealed(let result) = table.events.last else { Issue.record("no throw"); return }
        #expect(result.hands.map(\.hand) == [.rock, .paper] && result.winner == bob)
    }

    @Test("Every view and event, for both players, a watcher and nobody, hides the hands until both reveals are in", arguments: [false, true])
    func nothingLeaks(secondRevealsFirst: Bool) throws {
        var table = try Table(bestOf: 5)
        for (first, second) in [(Hand.rock, Hand.rock), (.paper, .scissors), (.scissors, .rock), (.rock, .scissors)] {
            try table.playThrow(first, second, secondRevealsFirst: secondRevealsFirst)
        }
    }

    @Test("Each seat's view says who has committed and revealed, and what to do next")
    func progressInViews() throws {
        var table = try Table()
        let mine = SealedHand(hand: .rock), theirs = SealedHand(hand: .paper)
        func steps() -> [RPSView.NextStep] { [alice, bob, carol].map { table.rules.view(for: $0).next } }
        func seats() -> [[Bool]] { table.rules.view(for: carol).seats.map { [$0.committed, $0.revealed] } }
        #expect(steps() == [.commit, .commit, .watch] && seats() == [[false, false], [false, false]])
        try table.send(mine.commitMove, from: alice)
        #expect(steps() == [.wait, .commit, .watch] && seats() == [[true, false], [false, false]])
        try table.send(theirs.commitMove, from: bob)
        #expect(steps() == [.reveal, .reveal, .watch] && seats() == [[true, false], [true, false]])
        try table.send(theirs.revealMove, from: bob)
        #expect(steps() == [.reveal, .wait, .watch] && seats() == [[true, false], [true, true]])
        try table.send(mine.revealMove, from: alice)
        #expect(steps() == [.commit, .commit, .watch] && seats() == [[false, false], [false, false]])
        #expect(table.rules.view(for: alice).role == .player && table.rules.view(for: carol).role == .watcher)
    }
}
