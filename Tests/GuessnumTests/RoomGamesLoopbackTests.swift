import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// The room games between real `guessnum` processes on loopback, joined without the list: by
/// address and by join code (neither says which game, so the player's program learns it from the
/// host), privately, with a kick, and with `--json`. Each person has their own HOME.
@Suite("The room games joined by address and code", .timeLimit(.minutes(2)))
struct RoomGamesLoopbackTests {
    func guessnum(_ arguments: [String], environment: [String: String] = TrustTests.person()) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment)
    }

    @Test("By address and by join code into tic-tac-toe, a --json player, /players and /kick")
    func addressCodeAndKick() async throws {
        let host = try guessnum(["host", "--game", "tictactoe", "--name", "alice"])
        defer { host.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: host)
        let code = try #require(await host.line(containing: "join gn1-")?.firstMatch(of: /gn1-[a-z0-9]+/).map { String($0.output) }, "host: \(host.text)")

        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined alice's game of tic-tac-toe.") != nil, "by address: \(bob.text)")
        let carol = try guessnum(["join", "--name", "carol", code])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Joined alice's game of tic-tac-toe.") != nil, "by code: \(carol.text)")
        #expect(await bob.line(containing: "Round 1, bob (X) against carol (O): your turn (X).") != nil, "bob: \(bob.text)")

        let dave = try guessnum(["join", "--json", "--name", "dave", "127.0.0.1:\(port)"])
        defer { dave.signal(SIGKILL) }
        #expect(await dave.line(containing: #"{"event":"welcome","data":{"#) != nil, "dave: \(dave.text)")
        let joinedAt = dave.text.range(of: "Joined alice's game of tic-tac-toe.")?.lowerBound
        let welcomedAt = dave.text.range(of: #"{"event":"welcome""#)?.lowerBound
        #expect(joinedAt != nil && welcomedAt != nil && joinedAt! < welcomedAt!, "the welcome comes after saying where dave joined: \(dave.text)")
        bob.send(line: "5")
        #expect(await dave.line(containing: #""placed":{"mark":"X","player":{"#) != nil, "dave reads the move as JSON: \(dave.text)")
        #expect(await dave.line(containing: #"{"event":"view","data":{"#) != nil, "and the board as he sees it: \(dave.text)")

        host.send(line: "/players")
        // One table in every game: dave's row has his state, no wins and the code with him.
        #expect(await eventually { host.text.contains(/\ndave +connected +0 +\d{3} \d{3}\n/) }, "host: \(host.text)")
        host.send(line: "/kick dave")
        #expect(await host.line(containing: "dave (127.0.0.1, key ") != nil, "host: \(host.text)")
        #expect(await dave.line(containing: "You were removed from the game by the host.") != nil, "dave: \(dave.text)")
        #expect(await bob.line(containing: "dave was removed") != nil || bob.text.contains("dave left"), "bob: \(bob.text)")
    }

    @Test("A private rock-paper-scissors game: the right password gets in, a wrong one is turned away (exit 3)")
    func privateGame() async throws {
        let secret = TrustTests.person().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 }
        let host = try guessnum(["host", "--game", "rps", "--password", "--name", "alice"], environment: secret)
        defer { host.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: host)
        #expect(host.text.contains("The game is private"), "host: \(host.text)")

        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: TrustTests.person().merging(["GUESSNUM_PASSWORD": "open sesame"]) { $1 })
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined alice's game of rock-paper-scissors.") != nil, "bob: \(bob.text)")
        let eve = try guessnum(["join", "--name", "eve", "127.0.0.1:\(port)"], environment: TrustTests.person().merging(["GUESSNUM_PASSWORD": "guess"]) { $1 })
        defer { eve.signal(SIGKILL) }
        #expect(await eve.exitStatus() == 3, "eve: \(eve.text)")
        #expect(!eve.text.contains("Joined") && eve.text.contains("password"), "eve: \(eve.text)")
    }

    @Test("A player of a private game whose link dropped gets back in without the password, even while five wrong passwords keep its address out")
    func privateGameReturningPlayer() async throws {
        func person(password: String) -> [String: String] { TrustTests.person().merging(["GUESSNUM_PASSWORD": password]) { $1 } }
        let host = try guessnum(["host", "--game", "rps", "--password", "--name", "alice", "--grace", "60"], environment: person(password: "open sesame"))
        defer { host.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: host)
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: person(password: "open sesame"))
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined alice's game of rock-paper-scissors.") != nil, "bob: \(bob.text)")
        // Welcomed, bob knows his seat is held (a player dropped before the welcome has no seat to keep).
        #expect(await bob.line(containing: "You play as bob; nobody else is here yet.") != nil, "bob: \(bob.text)")

        bob.signal(SIGSTOP)
        #expect(await host.line(containing: "bob is away: the connection dropped", within: .seconds(30)) != nil, "host: \(host.text)")
        for index in 1...5 {
            let eve = try guessnum(["join", "--name", "eve\(index)", "127.0.0.1:\(port)"], environment: person(password: "guess \(index)"))
            defer { eve.signal(SIGKILL) }
            #expect(await eve.exitStatus() == 3, "eve: \(eve.text)")
        }
        let carol = try guessnum(["join", "--name", "carol", "127.0.0.1:\(port)"], environment: person(password: "open sesame"))
        defer { carol.signal(SIGKILL) }
        #expect(await carol.exitStatus() == 3, "a newcomer from the address waits out the minute: \(carol.text)")
        #expect(carol.text.contains("5 wrong passwords came from your network address"), "carol: \(carol.text)")

        bob.signal(SIGCONT)
        #expect(await bob.line(containing: "Reconnected to alice's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob is back.") != nil, "host: \(host.text)")
        #expect(!bob.text.contains("did not let you back in") && !bob.text.contains("seat is given up"), "bob: \(bob.text)")
    }

    @Test("A tic-tac-toe host killed with SIGKILL and started again with --resume: the players come back by themselves to the same board and turn, and play on")
    func hostKilledAndResumed() async throws {
        let alice = TrustTests.person()
        let arguments = ["host", "--game", "tictactoe", "--name", "alice", "--grace", "60"]
        let host = try guessnum(arguments, environment: alice)
        defer { host.signal(SIGKILL) }
        let port = try await TrustTests().listeningPort(of: host)
        let bob = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Joined alice's game of tic-tac-toe.") != nil, "bob: \(bob.text)")
        let carol = try guessnum(["join", "--name", "carol", "127.0.0.1:\(port)"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Round 1, bob (X) against carol (O): bob's turn (X).") != nil, "carol: \(carol.text)")
        bob.send(line: "5")
        #expect(await host.line(containing: "bob (X) took 5.") != nil, "host: \(host.text)")
        try await Task.sleep(for: .milliseconds(200))  // the store's write of the tick, off the room's lock

        host.signal(SIGKILL)
        _ = await host.exitStatus()
        #expect(await bob.line(containing: "Lost the connection to alice's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        let again = try guessnum(arguments + ["--resume"], environment: alice)
        defer { again.signal(SIGKILL) }
        #expect(await again.line(containing: "Resuming your game: round 1 of tic-tac-toe, 2 players") != nil, "host: \(again.text)")
        #expect(await bob.line(containing: "Reconnected to alice's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await carol.line(containing: "Reconnected to alice's game.", within: .seconds(30)) != nil, "carol: \(carol.text)")
        #expect(await again.line(containing: "carol is back.") != nil, "host: \(again.text)")
        #expect(await again.line(containing: "bob is back.") != nil, "host: \(again.text)")
        #expect(await bob.line(containing: "The host's program was restarted while you were away; the game is shown as it is now.") != nil, "welcomed again: \(bob.text)")
        #expect(await bob.printed(" 4 | X | 6", times: 2), "and it is shown: the board again, as it is: \(bob.text)")
        #expect(!again.text.contains("Round 2") && !again.text.contains("joined"), "the same round and seats, not new ones: \(again.text)")

        carol.send(line: "5")
        #expect(await carol.line(containing: "That square is taken: choose an empty one.") != nil, "the board as it was: \(carol.text)")
        carol.send(line: "1")
        #expect(await bob.line(containing: "carol (O) took 1.") != nil, "O plays on after the host came back: \(bob.text)\ncarol: \(carol.text)\nhost: \(again.text)")
        #expect(await bob.line(containing: "your turn (X).") != nil, "bob: \(bob.text)")
    }
}
