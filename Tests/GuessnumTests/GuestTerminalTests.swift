import Foundation
import MultipeerTestSupport
import Testing

/// The player's REPL as a person sees it: `guessnum join` in a real terminal (tmux), against a
/// host process on loopback.
@Suite("The player's terminal", .timeLimit(.minutes(1)))
struct GuestTerminalTests {
    /// A person of their own, with no D-Bus (discovery fails with its sentence; joins go by address).
    static func person() -> [String: String] {
        personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]) { $1 }
    }

    /// alice hosting on loopback (the first secret 99), and the port she listens on.
    func aliceHosting() async throws -> (host: ChildProcess, port: String) {
        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--secret", "99"], environment: Self.person())
        guard let banner = await host.line(containing: "directly: "), let port = banner.split(separator: ":").last.map(String.init) else {
            host.signal(SIGKILL)
            throw TestFailure("alice's host printed no port: \(host.text)")
        }
        return (host, port)
    }

    /// bob, in a terminal of his own, joining the game on loopback at `port`.
    func bobJoining(_ port: String) async throws -> TmuxSession {
        let settings = Self.person().map { "\($0.key)=\($0.value)" }
        return try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "join", "--name", "bob", "127.0.0.1:\(port)"])
    }
    @Test("A half-typed line survives incoming messages; history recall, /help, Ctrl-C and Ctrl-D work")
    func typingWhileMessagesArrive() async throws {
        let (host, port) = try await aliceHosting()
        defer { host.signal(SIGKILL) }
        let terminal = try await bobJoining(port)
        defer { terminal.kill() }
        #expect(try await terminal.waitFor("the welcome") { $0.contains { $0.contains("Welcome, bob!") } })
        #expect(try await terminal.waitForLastLine("guess>"))

        try await terminal.type("hello wor")
        #expect(try await terminal.waitForLastLine("guess> hello wor"))
        host.send(line: "ping from alice")
        host.send(line: "second ping")
        #expect(try await terminal.waitFor("the host's chat") { $0.contains { $0.contains("alice: second ping") } })
        #expect(try await terminal.waitForLastLine("guess> hello wor", within: .seconds(30)), "the half-typed line is restored")
        try await terminal.type("ld")
        try await terminal.press("Enter")
        #expect(await host.line(containing: "bob: hello world") != nil, "host: \(host.text)")

        try await terminal.press("Up")
        #expect(try await terminal.waitForLastLine("guess> hello world"), "history recalls the last line")
        try await terminal.press("C-u")
        try await terminal.type("/help")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("the help") { $0.contains { $0.contains("/leave") } && $0.contains { $0.contains("/players") } })

        try await terminal.type("abandon this")
        #expect(try await terminal.waitForLastLine("guess> abandon this"))
        try await terminal.press("C-c")
        #expect(try await terminal.waitForLastLine("guess>"), "Ctrl-C clears the line and the game goes on")
        try await terminal.type("12")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("the verdict after Ctrl-C") { $0.contains { $0.contains("you guessed 12: too low") } })

        try await terminal.press("C-d")
        #expect(await host.line(containing: "bob left") != nil, "Ctrl-D leaves with a goodbye")
    }

    @Test("Joined by address at a terminal, the player goes on to the list of games when the game ends, rather than out of the program; a guess half typed for the game does not move into the list's prompt")
    func backToTheListAfterADirectGame() async throws {
        let (host, port) = try await aliceHosting()
        defer { host.signal(SIGKILL) }
        let terminal = try await bobJoining(port)
        defer { terminal.kill() }
        #expect(try await terminal.waitFor("the welcome") { $0.contains { $0.contains("Welcome, bob!") } })
        try await terminal.type("4")
        #expect(try await terminal.waitForLastLine("guess> 4"))
        host.send(line: "/quit")
        #expect(try await terminal.waitFor("the end of the game") { $0.contains { $0.contains("alice ended the game.") } })
        #expect(try await terminal.waitForLastLine("join>"), "the list's prompt, still running, without the guess half typed for the game")
        #expect(try await terminal.waitFor("the list") { $0.contains { $0.contains("Type the number of a game to join it") } })
        try await terminal.type("/quit")
        try await terminal.press("Enter")
        #expect(try await terminal.waitForExit() == 0)
    }

    @Test("Across a 10 s drop (the host stopped) the player reads that it is reconnecting and then back, and the half-typed line survives both")
    func halfTypedLineSurvivesADrop() async throws {
        let (host, port) = try await aliceHosting()
        defer { host.signal(SIGCONT); host.signal(SIGKILL) }
        let terminal = try await bobJoining(port)
        defer { terminal.kill() }
        #expect(try await terminal.waitFor("the welcome") { $0.contains { $0.contains("Welcome, bob!") } })
        try await terminal.type("hello wor")
        #expect(try await terminal.waitForLastLine("guess> hello wor"))

        host.signal(SIGSTOP)
        let stopped = ContinuousClock.now
        #expect(try await terminal.waitFor("the drop", within: .seconds(30)) { $0.contains { $0.contains("Lost the connection to alice's game — reconnecting…") } })
        #expect(try await terminal.waitForLastLine("guess> hello wor", within: .seconds(30)), "the half-typed line is kept through the drop")
        try await Task.sleep(until: stopped + .seconds(10))
        host.signal(SIGCONT)
        #expect(try await terminal.waitFor("the way back", within: .seconds(30)) { $0.contains { $0.contains("Reconnected to alice's game.") } })
        #expect(try await terminal.waitForLastLine("guess> hello wor", within: .seconds(30)), "and through the way back")
        try await terminal.type("ld")
        try await terminal.press("Enter")
        #expect(await host.line(containing: "bob: hello world") != nil, "the line is sent once back: \(host.text)")
        #expect(host.text.components(separatedBy: "bob joined").count == 2, "the same seat: \(host.text)")
    }
}
