import Foundation
import MultipeerTestSupport
import Testing

/// The faults of a real LAN, each broken on purpose on the test LAN with real processes and
/// real daemons: a player's link going down, a player's program killed or stopped, the host's
/// program stopped. Host 0 hosts; bob plays from another host, joining by the game's name.
///
/// After a link comes back up, that host's avahi-daemon takes 15–25 s to resolve services again
/// (measured here), so each test that takes a link down plays from a host of its own.
@Suite("Faults on the test LAN: players keep their seats", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.faults), .timeLimit(.minutes(4)))
struct FaultMatrixTests {
    let lan = TestLAN.faults

    /// A host called `name` on host 0 holding seats for `grace` seconds, and bob on host
    /// `player` in its game. Each test's host has a name of its own: a host killed by the test
    /// before stays in the daemons' caches for a while, under its name.
    func game(_ name: String, grace: Int, player: Int = 1) async throws -> (host: ChildProcess, bob: ChildProcess) {
        let host = try lan.guessnum(on: 0, ["host", "--secret", "42", "--name", name, "--grace", String(grace)])
        #expect(await host.line(containing: "Hosting \(name)'s game") != nil, "host: \(host.text)")
        let bob = try lan.guessnum(on: player, ["join", "--game", name, "--name", "bob", "--timeout", "30"])
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob joined") != nil, "host: \(host.text)")
        return (host, bob)
    }

    @Test("A player's link down for 10 s, then up: away, then back in the same seat without restarting anything; what was typed meanwhile is sent")
    func linkDownAndUp() async throws {
        let (host, bob) = try await game("ann", grace: 60, player: 2)
        defer { host.signal(SIGKILL); bob.signal(SIGKILL) }
        bob.send(line: "10")
        #expect(await host.line(containing: "bob guessed 10: too low") != nil)

        try await lan.setLink(of: 2, up: false)
        let down = ContinuousClock.now
        #expect(await host.line(containing: "bob is away: the connection dropped; the seat is kept for 60 s.", within: .seconds(30)) != nil, "host: \(host.text)")
        #expect(await bob.line(containing: "Lost the connection to ann's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "Not connected: this is sent when you are back in the game.") != nil, "bob: \(bob.text)")
        try await Task.sleep(until: down + .seconds(10))
        try await lan.setLink(of: 2, up: true)

        #expect(await bob.line(containing: "Reconnected to ann's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob is back.") != nil, "host: \(host.text)")
        #expect(await bob.line(containing: "you guessed 42: correct! You win round 1.") != nil, "the line typed while down: \(bob.text)")
        #expect(host.text.components(separatedBy: "bob joined").count == 2, "one seat all along: \(host.text)")
        #expect(!host.text.contains("bob left"))
    }

    @Test("A guess and a chat line typed 0.5 s after the player's link went down, before anyone noticed, reach the host once the link is back: one verdict, the line shown once to everyone, and the player told they were sent again")
    func linesTypedAsTheLinkDrops() async throws {
        let (host, bob) = try await game("gil", grace: 60, player: 5)
        defer { host.signal(SIGKILL); bob.signal(SIGKILL) }
        let carol = try lan.guessnum(on: 4, ["join", "--game", "gil", "--name", "carol", "--timeout", "30"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Welcome, carol!", within: .seconds(30)) != nil, "carol: \(carol.text)")

        try await lan.setLink(of: 5, up: false)
        let down = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(500))
        bob.send(line: "45")
        bob.send(line: "hi from the cut")
        #expect(await bob.line(containing: "Lost the connection to gil's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        try await Task.sleep(until: down + .seconds(6))
        try await lan.setLink(of: 5, up: true)

        #expect(await bob.line(containing: "Reconnected to gil's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        let told = "Sent again now that you are back (it had not reached the host before the drop): your guess 45, your chat line “hi from the cut”."
        #expect(await bob.line(containing: told) != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "you guessed 45: too high") != nil, "bob: \(bob.text)")
        #expect(await host.line(containing: "bob guessed 45: too high") != nil, "host: \(host.text)")
        #expect(await carol.line(containing: "bob: hi from the cut") != nil, "carol: \(carol.text)")
        #expect(await host.line(containing: "bob: hi from the cut") != nil, "host: \(host.text)")
        // Anything sent twice would have arrived by now.
        try await Task.sleep(for: .seconds(2))
        func count(_ text: String, in process: ChildProcess) -> Int { process.text.components(separatedBy: text).count - 1 }
        #expect(count("you guessed 45", in: bob) == 1, "one verdict: \(bob.text)")
        #expect(count("bob guessed 45", in: host) == 1, "judged once: \(host.text)")
        #expect(count("bob guessed 45", in: carol) <= 1, "carol: \(carol.text)")
        #expect(count("bob: hi from the cut", in: carol) == 1, "shown once: \(carol.text)")
        #expect(count("bob: hi from the cut", in: host) == 1, "shown once: \(host.text)")
        #expect(count(told, in: bob) == 1, "bob: \(bob.text)")
        #expect(host.text.components(separatedBy: "bob joined").count == 2, "one seat all along: \(host.text)")
    }

    @Test("A player killed with SIGKILL is away at once and gone after the grace period")
    func playerKilled() async throws {
        let (host, bob) = try await game("cid", grace: 3)
        defer { host.signal(SIGKILL) }
        bob.signal(SIGKILL)
        let killed = ContinuousClock.now
        #expect(await host.line(containing: "bob is away", within: .seconds(3)) != nil, "within 3 s: \(host.text)")
        #expect(await host.line(containing: "bob left (0 playing).", within: .seconds(30)) != nil, "host: \(host.text)")
        #expect(ContinuousClock.now - killed >= .seconds(3), "not before the grace period is over")
    }

    @Test("A player stopped (SIGSTOP) for 10 s, then continued: away, then back with the same seat and score")
    func playerStopped() async throws {
        let (host, bob) = try await game("dee", grace: 60)
        defer { host.signal(SIGKILL); bob.signal(SIGKILL) }
        bob.send(line: "42")
        #expect(await host.line(containing: "bob won round 1") != nil, "host: \(host.text)")
        let carol = try lan.guessnum(on: 4, ["join", "--game", "dee", "--name", "carol", "--timeout", "30"])
        defer { carol.signal(SIGKILL) }
        #expect(await carol.line(containing: "Welcome, carol!", within: .seconds(30)) != nil, "carol: \(carol.text)")
        bob.signal(SIGSTOP)
        #expect(await host.line(containing: "bob is away", within: .seconds(30)) != nil, "host: \(host.text)")
        carol.send(line: "see you soon bob")
        #expect(await host.line(containing: "carol: see you soon bob") != nil)
        try await Task.sleep(for: .seconds(8))
        bob.signal(SIGCONT)
        #expect(await bob.line(containing: "Reconnected to dee's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "carol: see you soon bob") != nil, "the line missed while stopped is shown: \(bob.text)")
        #expect(await host.line(containing: "bob is back.") != nil, "host: \(host.text)")
        host.send(line: "/score")
        #expect(await host.line(containing: "1. bob: 1 win") != nil, "the score kept: \(host.text)")
        #expect(host.text.components(separatedBy: "bob joined").count == 2, "one seat all along: \(host.text)")
    }

    @Test("A player's link down past the grace period: the player gives up with a sentence and the list of games; the host freed the seat")
    func linkDownPastTheGracePeriod() async throws {
        let (host, bob) = try await game("eve", grace: 5, player: 3)
        defer { host.signal(SIGKILL); bob.signal(SIGKILL) }
        try await lan.setLink(of: 3, up: false)
        #expect(await bob.line(containing: "reconnecting… (your seat is kept for 5 s)", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "Could not get back into eve's game within 5 s: the seat is given up.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await bob.line(containing: "Searching for games…") != nil, "the list: \(bob.text)")
        #expect(await host.line(containing: "bob left (0 playing).", within: .seconds(30)) != nil, "host: \(host.text)")
        try await lan.setLink(of: 3, up: true)
    }

    @Test("The host stopped (SIGSTOP) for 5 s: players see the link lost within 3 s of its silence and come back when it resumes")
    func hostStopped() async throws {
        let (host, bob) = try await game("flo", grace: 60)
        defer { host.signal(SIGKILL); bob.signal(SIGKILL) }
        host.signal(SIGSTOP)
        let stopped = ContinuousClock.now
        #expect(await bob.line(containing: "Lost the connection to flo's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(ContinuousClock.now - stopped <= .seconds(4), "seen within 3 s of the host's silence (and a check's interval)")
        try await Task.sleep(until: stopped + .seconds(5))
        host.signal(SIGCONT)
        #expect(await bob.line(containing: "Reconnected to flo's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct!") != nil, "playing again: \(bob.text)")
        #expect(host.text.components(separatedBy: "bob joined").count == 2, "one seat all along: \(host.text)")
    }

    @Test("The host killed with SIGKILL and started again with --resume: players come back by themselves to the same round, commitment and scores, and the fairness check passes at the round's end")
    func hostKilledAndResumed() async throws {
        let alice = personEnvironment()
        let hostArguments = [try guessnumExecutable().path, "host", "--secret", "42", "--name", "gus", "--grace", "60"]
        let host = try lan.start(on: 0, hostArguments, environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Hosting gus's game") != nil, "host: \(host.text)")
        let bob = try lan.guessnum(on: 1, ["join", "--game", "gus", "--name", "bob", "--timeout", "30"])
        defer { bob.signal(SIGKILL) }
        #expect(await bob.line(containing: "Welcome, bob!", within: .seconds(30)) != nil, "bob: \(bob.text)")
        let commitment = try #require(host.text.firstMatch(of: /commitment ([0-9a-f]{16})/)?.output.1)
        bob.send(line: "10")
        #expect(await host.line(containing: "bob guessed 10: too low") != nil)
        try await Task.sleep(for: .milliseconds(200))  // a tick: the guess is in the store

        host.signal(SIGKILL)
        _ = await host.exitStatus()
        #expect(await bob.line(containing: "Lost the connection to gus's game — reconnecting…", within: .seconds(30)) != nil, "bob: \(bob.text)")
        let again = try lan.start(on: 0, hostArguments + ["--resume"], environment: alice)
        defer { again.signal(SIGKILL) }
        #expect(await again.line(containing: "Resuming your game: round 1 (numbers 1–100), 1 player, 1 guess this round") != nil, "host: \(again.text)")
        #expect(await again.line(containing: "commitment \(commitment)") != nil, "the same commitment: \(again.text)")
        #expect(await bob.line(containing: "Reconnected to gus's game.", within: .seconds(30)) != nil, "bob: \(bob.text)")
        #expect(await again.line(containing: "bob is back.") != nil, "host: \(again.text)")

        bob.send(line: "42")
        #expect(await bob.line(containing: "you guessed 42: correct! You win round 1.") != nil, "bob: \(bob.text)")
        #expect(await again.line(containing: "bob won round 1 with 2 guesses") != nil, "the guess before the crash counts: \(again.text)")
        #expect(await bob.line(containing: "Round 1: the reveal matches the commitment and every verdict") != nil, "bob: \(bob.text)")
    }
}
