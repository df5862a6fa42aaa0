import Foundation
import MultipeerTestSupport
import Testing

/// The player's REPL as a person sees it: `guessnum join` in a real terminal (tmux), against a
/// host process on loopback.
@Suite("The player's terminal", .timeLimit(.minutes(1)))
struct GuestTerminalTests {
    @Test("A half-typed line survives incoming messages; history recall, /help, Ctrl-C and Ctrl-D work")
    func typingWhileMessagesArrive() async throws {
        var environment = personEnvironment()
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/guessnum-test-bus"
        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--secret", "99"], environment: environment)
        defer { host.signal(SIGKILL) }
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        let port = try #require(banner.split(separator: ":").last.map(String.init))

        let settings = environment.map { "\($0.key)=\($0.value)" }
        let terminal = try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "join", "--name", "bob", "127.0.0.1:\(port)"])
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
        var environment = personEnvironment()
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/guessnum-test-bus"
        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--secret", "99"], environment: environment)
        defer { host.signal(SIGKILL) }
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        let port = try #require(banner.split(separator: ":").last.map(String.init))

        let settings = personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]) { $1 }.map { "\($0.key)=\($0.value)" }
        let terminal = try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "join", "--name", "bob", "127.0.0.1:\(port)"])
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
        var environment = personEnvironment()
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/guessnum-test-bus"
        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--secret", "99"], environment: environment)
        defer { host.signal(SIGCONT); host.signal(SIGKILL) }
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        let port = try #require(banner.split(separator: ":").last.map(String.init))

        let settings = personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        let terminal = try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "join", "--name", "bob", "127.0.0.1:\(port)"])
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
