import Foundation
import MultipeerTestSupport
import Testing

/// The host's REPL as a person sees it: `guessnum host` in a real terminal (tmux), with a
/// player process joined over loopback.
@Suite("The host's terminal", .timeLimit(.minutes(1)))
struct HostTerminalTests {
    @Test("With a player in, Ctrl-C, /quit and Ctrl-D all ask first; a yes ends the game for everyone")
    func endingAskedAtATerminal() async throws {
        var environment = personEnvironment()
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/guessnum-test-bus"
        let settings = environment.map { "\($0.key)=\($0.value)" }
        let terminal = try await TmuxSession(["/usr/bin/env"] + settings + [try guessnumExecutable().path, "host", "--name", "alice", "--secret", "9"])
        defer { terminal.kill() }
        var port: Int?
        #expect(try await terminal.waitFor("the banner") { lines in
            port = lines.joined().firstMatch(of: /directly: \S+ join [0-9.]+:([0-9]+)/).flatMap { Int($0.output.1) }
            return port != nil && lines.last == ">"
        })
        let player = try ChildProcess(try guessnumExecutable(), ["join", "--name", "bob", "127.0.0.1:\(try #require(port))"],
                                      environment: personEnvironment().merging(["DBUS_SYSTEM_BUS_ADDRESS": environment["DBUS_SYSTEM_BUS_ADDRESS"]!]) { $1 })
        defer { player.signal(SIGKILL) }
        #expect(await player.line(containing: "Welcome, bob!") != nil, "bob: \(player.text)")
        #expect(try await terminal.waitFor("bob joining") { $0.contains { $0.contains("bob joined (1 playing).") } })

        try await terminal.press("C-c")
        #expect(try await terminal.waitFor("the question after Ctrl-C") { $0.contains { $0.contains("1 player is in the game. End it for everyone? [y/n] (Ctrl-C or Ctrl-D: yes)") } })
        try await terminal.type("n")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("the game going on") { $0.filter { $0.contains("The game goes on.") }.count == 1 })
        try await terminal.type("/quit")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("the question after /quit") { $0.filter { $0.contains("End it for everyone?") }.count == 2 })
        try await terminal.type("n")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("the game going on") { $0.filter { $0.contains("The game goes on.") }.count == 2 })
        try await terminal.press("C-d")
        #expect(try await terminal.waitFor("the question after Ctrl-D, with a prompt to answer at") { lines in
            lines.filter { $0.contains("End it for everyone?") }.count == 3 && lines.last == ">"
        })
        try await terminal.type("y")
        try await terminal.press("Enter")
        #expect(await player.line(containing: "alice ended the game.") != nil, "bob: \(player.text)")
        #expect(await player.line(containing: "The game is over.") != nil, "bob: \(player.text)")
        #expect(try await terminal.waitFor("final scores") { $0.contains { $0.contains("The game is over.") } })
        #expect(try await terminal.waitForExit(within: .seconds(30)) == 0)
    }
}
