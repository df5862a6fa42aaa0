import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("The player list", .timeLimit(.minutes(2)))
struct PlayerListTests {
    @Test("Players go from connecting to connected to gone, with the game's unique name, wins and guesses")
    func lifecycle() {
        var list = PlayerList()
        let bob = peer("bob")
        _ = list.apply(PeerStateChange(peer: bob, state: .connecting, reason: nil))
        #expect(list.row(for: bob.identity)?.presence == .connecting)
        _ = list.apply(PeerStateChange(peer: bob, state: .connected, reason: nil))
        let ref = PlayerRef(id: bob.identity, name: "bob (2)")
        _ = list.apply(PlayerJoined(sequence: 1, player: ref, playerCount: 1))
        #expect(list.row(for: bob.identity)?.name == "bob (2)")
        #expect(list.row(for: bob.identity)?.presence == .connected)

        _ = list.apply(RoundStarted(sequence: 2, round: 1, range: .standard, commitment: Commitment(secret: 1, salt: Salt.random())))
        _ = list.apply(JudgedGuess(sequence: 3, round: 1, judgement: Judgement(player: ref, guess: 5, verdict: .tooLow)))
        _ = list.apply(JudgedGuess(sequence: 4, round: 1, judgement: Judgement(player: ref, guess: 500, verdict: .outOfRange(.standard))))
        #expect(list.row(for: bob.identity)?.guessesThisRound == 1, "out-of-range guesses do not count")
        _ = list.apply(RoundWon(sequence: 5, round: 1, range: .standard, commitment: Commitment(secret: 1, salt: Salt.random()), winner: ref, secret: 1, salt: Salt.random(), winningGuesses: 1, totalGuesses: 1))
        #expect(list.row(for: bob.identity)?.wins == 1)
        _ = list.apply(JudgedGuess(sequence: 6, round: 2, judgement: Judgement(player: ref, guess: 5, verdict: .tooLow)))
        #expect(list.row(for: bob.identity)?.guessesThisRound == 1, "a verdict of a later round starts that round's count")
        #expect(list.row(for: bob.identity)?.displayText == "bob (2) — connected, 1 win, 1 guess this round")

        let changes = list.apply(PeerStateChange(peer: bob, state: .notConnected, reason: .lost(.connectionClosed("abruptly"))))
        #expect(changes.count == 1)
        #expect(list.row(for: bob.identity)?.presence == .gone)
        #expect(list.connectedCount == 0)
    }

    @Test("An invitation turned away leaves no row: a newcomer's goes, a gone player's goes back to gone with its wins")
    func turnedAwayLeavesNoRow() {
        var list = PlayerList()
        let mallory = peer("bob")
        _ = list.apply(PeerStateChange(peer: mallory, state: .connecting, reason: nil))
        #expect(list.row(for: mallory.identity)?.presence == .connecting)
        #expect(list.apply(PeerStateChange(peer: mallory, state: .notConnected, reason: nil)) == [.removed(mallory.identity)])
        #expect(list.all.isEmpty, "no “gone” row for someone who was never in")

        let bob = peer("bob")
        _ = list.apply(PeerStateChange(peer: bob, state: .connected, reason: nil))
        let ref = PlayerRef(id: bob.identity, name: "bob")
        _ = list.apply(RoundWon(sequence: 1, round: 0, range: .standard, commitment: Commitment(secret: 1, salt: Salt.random()), winner: ref, secret: 1, salt: Salt.random(), winningGuesses: 1, totalGuesses: 1))
        _ = list.apply(PeerStateChange(peer: bob, state: .notConnected, reason: nil))
        _ = list.apply(PeerStateChange(peer: bob, state: .connecting, reason: nil))
        _ = list.apply(PeerStateChange(peer: bob, state: .notConnected, reason: nil))
        #expect(list.row(for: bob.identity)?.presence == .gone)
        #expect(list.row(for: bob.identity)?.wins == 1)

        // A player who does get in keeps the row as any other.
        let carol = peer("carol")
        _ = list.apply(PeerStateChange(peer: carol, state: .connecting, reason: nil))
        _ = list.apply(PeerStateChange(peer: carol, state: .connected, reason: nil))
        _ = list.apply(PeerStateChange(peer: carol, state: .notConnected, reason: nil))
        #expect(list.row(for: carol.identity)?.presence == .gone)
    }

    @Test("Only the most recent gone players stay listed")
    func goneLimit() {
        var list = PlayerList(goneLimit: 1)
        let peers = [peer("a"), peer("b")]
        for peer in peers { _ = list.apply(PeerStateChange(peer: peer, state: .connected, reason: nil)) }
        _ = list.apply(PeerStateChange(peer: peers[0], state: .notConnected, reason: nil))
        let changes = list.apply(PeerStateChange(peer: peers[1], state: .notConnected, reason: nil))
        #expect(changes.contains(.removed(peers[0].identity)))
        #expect(list.all.map(\.id) == [peers[1].identity])
    }
}
