import Foundation
import MultipeerTestSupport
import Testing

/// Tic-tac-toe, rock-paper-scissors and Snap as people play them, on the test LAN: a host on one
/// machine (`guessnum host --game …`), two players on two others finding it by name through
/// Avahi, each person with a HOME of their own, one player's link cut and back mid-game.
@Suite("The room games on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.rooms), .timeLimit(.minutes(3)))
struct RoomGamesLANTests {
    let lan = TestLAN.rooms

    @Test("Tic-tac-toe: found by name, the list says which game, moves shown everywhere, a player's link cut for 4 s mid-round keeps the seat and the turn, and the round is won")
    func ticTacToe() async throws {
        let host = try lan.guessnum(on: 0, ["host", "--game", "tictactoe", "--name", "tina"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting tina's game: tic-tac-toe") != nil, "host: \(host.text)")

        let bob = try lan.guessnum(on: 1, ["join", "--game", "tina", "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "— tic-tac-toe, 0/100 players", within: .seconds(30)) != nil, "the list names the game: \(bob.text)")
        #expect(await bob.line(containing: "Joined tina's game of tic-tac-toe.") != nil, "bob: \(bob.text)")
        let carol = try lan.guessnum(on: 2, ["join", "--game", "tina", "--name", "carol"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Joined tina's game of tic-tac-toe.", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(await bob.line(containing: "Round 1, bob (X) against carol (O): your turn (X).") != nil, "bob: \(bob.text)")
        // The host reads beside each player the digits that player reads beside the host's name.
        let bobsCode = bob.text.firstMatch(of: /Verification code with tina: (\d{3} \d{3})/).map { String($0.1) }
        #expect(bobsCode != nil, "bob: \(bob.text)")
        host.send(line: "/players")
        #expect(await eventually { host.text.contains(try! Regex("\\nbob +connected +0 +\(bobsCode ?? "?")\\n")) }, "host: \(host.text)")

        bob.send(line: "1")
        #expect(await carol.line(containing: "bob (X) took 1.") != nil, "carol: \(carol.text)")
        #expect(await carol.line(containing: "your turn (O)") != nil, "carol: \(carol.text)")
        // The game's own command, and /help that lists it, for a player and for the host.
        carol.send(line: "/help")
        #expect(await carol.line(containing: "/board") != nil, "carol: \(carol.text)")
        carol.send(line: "/board")
        #expect(await carol.line(containing: " X | 2 | 3") != nil, "carol: \(carol.text)")
        host.send(line: "/board")
        #expect(await host.line(containing: " X | 2 | 3") != nil, "host: \(host.text)")

        // Carol's link drops on her turn: her seat and her turn wait for her.
        try await lan.setLink(of: 2, up: false)
        #expect(await host.line(containing: "carol is away: the connection dropped; the seat is kept for 60 s.", within: .seconds(30)) != nil, "host: \(host.text)")
        #expect(await carol.line(containing: "Lost the connection to tina's game — reconnecting…", within: .seconds(30)) != nil, "carol: \(carol.text)")
        carol.send(line: "5")
        #expect(await carol.line(containing: "Not connected: this is sent when you are back in the game.") != nil, "carol: \(carol.text)")
        bob.send(line: "2")
        #expect(await bob.line(containing: "It is not your turn: wait for your opponent's move.") != nil, "bob may not play carol's turn: \(bob.text)")
        try await Task.sleep(for: .seconds(4))
        try await lan.setLink(of: 2, up: true)
        #expect(await carol.line(containing: "Reconnected to tina's game.", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(await host.line(containing: "carol is back.") != nil, "host: \(host.text)")
        #expect(await bob.line(containing: "carol (O) took 5.") != nil, "the move typed while down is played once back: \(bob.text)")

        for (player, square) in [(bob, "2"), (carol, "9"), (bob, "3")] {
            player.send(line: square)
            #expect(await host.line(containing: "took \(square).") != nil, "host: \(host.text)")
        }
        for person in [host, bob, carol] {
            #expect(await person.line(containing: "bob wins with 1-2-3.") != nil, "\(person.text)")
        }
        #expect(await carol.line(containing: "Scores after round 1: bob 1.") != nil, "carol: \(carol.text)")

        carol.closeInput()
        #expect(await carol.exitStatus() == 0, "carol: \(carol.text)")
        #expect(await host.line(containing: "carol left") != nil, "host: \(host.text)")
    }

    @Test("Rock-paper-scissors: one word a throw, the hand sealed until both chose (revealed by the program itself), a player's link cut for 4 s after choosing, the throw and the match won")
    func rockPaperScissors() async throws {
        let host = try lan.guessnum(on: 0, ["host", "--game", "rps", "--best-of", "1", "--name", "rex"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting rex's game: rock-paper-scissors, best of 1") != nil, "host: \(host.text)")
        let bob = try lan.guessnum(on: 1, ["join", "--game", "rex", "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined rex's game of rock-paper-scissors.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        let carol = try lan.guessnum(on: 2, ["join", "--game", "rex", "--name", "carol"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Joined rex's game of rock-paper-scissors.", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(await bob.line(containing: "Choose rock, paper or scissors.") != nil, "bob: \(bob.text)")

        // The game's own /help: its command, and nothing of another game's.
        bob.send(line: "/help")
        #expect(await bob.line(containing: "/match") != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "what happened in the game lately") != nil, "bob: \(bob.text)")
        #expect(!bob.text.contains("this round's guesses") && !bob.text.contains("[RANGE]"), "no guess-the-number help in rock-paper-scissors: \(bob.text)")
        bob.send(line: "/match")
        #expect(await bob.line(containing: "Match 1, best of 1, throw 1: bob 0, carol 0. Choose rock, paper or scissors.") != nil, "bob: \(bob.text)")
        bob.send(line: "rock")
        #expect(await carol.line(containing: "bob has chosen.") != nil, "carol: \(carol.text)")
        let mentions = carol.text.split(separator: "\n").filter { $0.contains("rock") && !$0.contains("rock-paper-scissors") && !$0.contains("rock, paper or scissors") }
        #expect(mentions.isEmpty, "nothing tells carol bob's hand: \(carol.text)")

        try await lan.setLink(of: 1, up: false)
        #expect(await bob.line(containing: "Lost the connection to rex's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob is away") != nil, "host: \(host.text)")
        carol.send(line: "s")
        #expect(await carol.line(containing: "bob and carol have both chosen.") != nil, "carol: \(carol.text)")
        try await Task.sleep(for: .seconds(4))
        try await lan.setLink(of: 1, up: true)
        #expect(await bob.line(containing: "Reconnected to rex's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")

        // Bob's program reveals his sealed hand by itself once back.
        for person in [host, bob, carol] {
            #expect(await person.line(containing: "bob: rock, carol: scissors — bob takes the throw") != nil, "\(person.text)")
            #expect(await person.line(containing: "bob wins the match 1–0.") != nil, "\(person.text)")
        }
        #expect(await carol.line(containing: "Scores after match 1: bob 1.") != nil, "a match, not a round: \(carol.text)")
        host.send(line: "/score")
        #expect(await host.line(containing: "1. bob: 1 win") != nil, "host: \(host.text)")
    }

    @Test("Snap: found by name, dealt to two players in the order they arrived, a watcher who reads the piles, cards turned in turn, a snap called, and a player's link cut for 4 s on their turn keeps the seat and the turn")
    func snap() async throws {
        let host = try lan.guessnum(on: 0, ["host", "--game", "snap", "--name", "sam"])
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting sam's game: Snap") != nil, "host: \(host.text)")
        let bob = try lan.guessnum(on: 1, ["join", "--game", "sam", "--name", "bob"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "— Snap, 0/100 players", within: .seconds(30)) != nil, "the list names the game: \(bob.text)")
        #expect(await bob.line(containing: "Joined sam's game of Snap.") != nil, "bob: \(bob.text)")
        let carol = try lan.guessnum(on: 2, ["join", "--game", "sam", "--name", "carol"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Joined sam's game of Snap.", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(await bob.line(containing: "the deck is dealt to bob and carol, in the order they arrived; bob turns first.") != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "Your turn: type t to turn over your card.") != nil, "bob: \(bob.text)")
        // Carol's welcome comes with the deal: she reads the table as it is.
        #expect(await carol.line(containing: "Piles: bob nothing showing (holds 26), carol nothing showing (holds 26).") != nil, "carol: \(carol.text)")
        #expect(await carol.line(containing: "Round 1: bob's turn.") != nil, "carol: \(carol.text)")

        // A third person joins mid-round on the host's machine (a HOME of their own): a watcher.
        let dave = try lan.guessnum(on: 0, ["join", "--game", "sam", "--name", "dave"])
        defer { dave.signal(SIGKILL) }
        #expect(await dave.line(containing: "Joined sam's game of Snap.", within: .seconds(30)) != nil, "dave: \(dave.text)")
        #expect(await dave.line(containing: "You are watching.") != nil, "dave: \(dave.text)")
        dave.send(line: "t")
        #expect(await dave.line(containing: "You are watching this round: wait for a round of your own.") != nil, "a watcher's turn is refused: \(dave.text)")

        bob.send(line: "t")
        #expect(await carol.line(containing: "bob turned ") != nil, "carol: \(carol.text)")
        #expect(await dave.line(containing: "bob turned ") != nil, "the watcher reads it too: \(dave.text)")
        #expect(await carol.line(containing: "Your turn: type t to turn over your card.") != nil, "carol: \(carol.text)")
        bob.send(line: "t")
        #expect(await bob.line(containing: "It is not your turn to turn a card over") != nil, "bob may not turn twice: \(bob.text)")
        carol.send(line: "turn")
        #expect(await bob.line(containing: "carol turned ") != nil, "bob: \(bob.text)")
        #expect(await bob.printed("Your turn: type t to turn over your card.", times: 2), "bob: \(bob.text)")
        #expect(await bob.line(containing: "Piles: bob ") != nil, "bob: \(bob.text)")
        carol.send(line: "/help")
        #expect(await carol.line(containing: "/table") != nil, "carol: \(carol.text)")
        bob.send(line: "/table")
        #expect(await bob.line(containing: "bob (you): 25 face down, 1 face up") != nil, "bob: \(bob.text)")
        // A snap, right or wrong (the deck is shuffled): everyone reads who called it.
        carol.send(line: "s")
        for person in [host, bob, dave] {
            #expect(await person.line(containing: "carol called snap") != nil, "\(person.text)")
        }

        // Bob's link drops on his turn: his seat and his turn wait for him, and his t is sent once back.
        try await lan.setLink(of: 1, up: false)
        #expect(await host.line(containing: "bob is away: the connection dropped; the seat is kept for 60 s.", within: .seconds(30)) != nil, "host: \(host.text)")
        #expect(await bob.line(containing: "Lost the connection to sam's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        bob.send(line: "t")
        #expect(await bob.line(containing: "Not connected: this is sent when you are back in the game.") != nil, "bob: \(bob.text)")
        try await Task.sleep(for: .seconds(4))
        try await lan.setLink(of: 1, up: true)
        #expect(await bob.line(containing: "Reconnected to sam's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob is back.") != nil, "host: \(host.text)")
        #expect(await carol.printed("Your turn: type t to turn over your card.", times: 2), "bob's turn, played once back, passes it to carol: \(carol.text)")
        #expect(await carol.printed("bob turned ", times: 2), "carol: \(carol.text)")
        #expect(!(await carol.printed("bob turned ", times: 3, within: .milliseconds(500))), "bob's card turned once: \(carol.text)")

        dave.closeInput()
        #expect(await dave.exitStatus() == 0, "dave: \(dave.text)")
        #expect(await host.line(containing: "dave left") != nil, "host: \(host.text)")
    }
}
