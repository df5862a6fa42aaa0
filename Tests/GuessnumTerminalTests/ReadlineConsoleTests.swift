import Foundation
import MultipeerTestSupport
import Testing

/// `ConsoleDemo` on a real terminal (tmux) gets a `ReadlineConsole`.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ReadlineConsoleTests {
    private static let prompt = "demo>"   // as captured: trailing space trimmed

    /// Starts the demo in tmux and waits for its prompt.
    private func startDemo(_ arguments: [String] = [], history: URL? = nil) async throws -> TmuxSession {
        let historyURL = history ?? Self.temporaryHistory()
        let session = try await TmuxSession([try builtExecutable(named: "ConsoleDemo").path, "--history", historyURL.path] + arguments)
        if history == nil { session.removeOnKill(historyURL.deletingLastPathComponent()) }
        // The banner is looked for in the scrollback too: with --ticks, a busy machine may let
        // the ticks scroll it off the screen before the first look.
        try await session.waitFor("the readline console and its prompt") { lines in
            guard lines.last == Self.prompt else { return false }
            return (try? await session.screen(includingScrollback: true))?.contains("console: readline") == true
        }
        return session
    }

    private static func temporaryHistory() -> URL {
        Scratch.path("guessnum-terminal-tests").appendingPathComponent("history")
    }

    private static func highestTick(_ lines: [String]) -> Int {
        lines.compactMap { $0.wholeMatch(of: /tick (\d+)/).flatMap { Int($0.1) } }.max() ?? 0
    }

    @Test("Messages, and diagnostics on standard error, arrive above the line being typed", arguments: ["--ticks", "--diagnostic-ticks"])
    func messagesArriveAboveTheLineBeingTyped(ticks: String) async throws {
        let session = try await startDemo([ticks])
        defer { session.kill() }
        try await session.type("half-typed text")
        try await session.waitForLastLine("demo> half-typed text")
        let ticksSeen = Self.highestTick(try await session.screen())
        try await session.waitFor("two more ticks") { Self.highestTick($0) >= ticksSeen + 2 }
        try await session.waitForLastLine("demo> half-typed text")

        let screen = try await session.screen()
        for line in screen where line.contains("tick") {
            #expect(line.wholeMatch(of: /tick \d+/) != nil, "a tick was printed into another line: \(line)")
        }
        #expect(!screen.dropLast().contains { $0.hasPrefix("demo>") }, "the prompt was left behind:\n\(screen.joined(separator: "\n"))")

        // The cursor is back at the end of the half-typed line…
        try await session.waitFor("the cursor after the half-typed text") { lines in
            guard let cursor = try? await session.cursor() else { return false }
            return lines.last == "demo> half-typed text" && cursor.x == "demo> half-typed text".count && cursor.y == lines.count - 1
        }
        // …and editing continues where it was: insert before " text" while ticks go on.
        try await session.press("Left", "Left", "Left", "Left", "Left")
        try await session.waitFor("one more tick") { Self.highestTick($0) >= ticksSeen + 3 }
        try await session.type("-more")
        try await session.waitForLastLine("demo> half-typed-more text")
        try await session.press("Enter")
        try await session.waitFor("the echo of the edited line") { $0.contains("you said: half-typed-more text") }
        try await session.waitForLastLine("demo>")
    }

    @Test func aLineWrappedOverTwoRowsSurvivesMessages() async throws {
        let session = try await startDemo(["--ticks"])
        defer { session.kill() }
        let text = (0..<30).map { "w\($0 % 10)rd" }.joined(separator: " ")   // 149 characters
        try await session.type(text)
        let full = "demo> " + text
        let rows = [String(full.prefix(120)), String(full.dropFirst(120))]
        try await session.waitFor("the wrapped line") { Array($0.suffix(2)) == rows }
        let ticksSeen = Self.highestTick(try await session.screen())
        try await session.waitFor("two more ticks") { Self.highestTick($0) >= ticksSeen + 2 }
        try await session.waitFor("the wrapped line under the ticks") { Array($0.suffix(2)) == rows }
        for line in try await session.screen() where line.contains("tick") {
            #expect(line.wholeMatch(of: /tick \d+/) != nil, "a tick was printed into another line: \(line)")
        }
        try await session.press("Enter")
        try await session.waitFor("the echo of the long line") { $0.contains { $0.hasPrefix("you said: w0rd w1rd") } }
    }

    @Test func upArrowRecallsHistoryAcrossRuns() async throws {
        let history = Self.temporaryHistory()
        defer { try? FileManager.default.removeItem(at: history.deletingLastPathComponent()) }
        do {
            let session = try await startDemo(history: history)
            defer { session.kill() }
            try await session.type("remember me")
            try await session.press("Enter")
            try await session.waitFor("the echo") { $0.contains("you said: remember me") }
            try await session.waitForLastLine("demo>")
            try await session.press("Up")
            try await session.waitForLastLine("demo> remember me")
            try await session.press("Enter")
            try await session.waitFor("the second echo") { $0.filter { $0 == "you said: remember me" }.count == 2 }
            try await session.type("/quit")
            try await session.press("Enter")
            try await session.waitFor("the goodbye") { $0.contains("bye (quit)") }
            #expect(try await session.waitForExit() == 0)
        }
        let saved = try String(contentsOf: history, encoding: .utf8)
        #expect(saved.split(separator: "\n").contains("remember me"))

        let session = try await startDemo(history: history)
        defer { session.kill() }
        try await session.press("Up")
        try await session.waitForLastLine("demo> /quit")
        try await session.press("Up")
        try await session.waitForLastLine("demo> remember me")
    }

    @Test func tabCompletesSlashCommandsInTheFirstWordOnly() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        try await session.type("/he")
        try await session.press("Tab")
        try await session.waitForLastLine("demo> /help")
        try await session.press("Enter")
        try await session.waitFor("the completed command") { $0.contains("you said: /help") }

        try await session.type("/pl")
        try await session.press("Tab")
        try await session.waitForLastLine("demo> /players")
        try await session.press("C-u")
        try await session.waitForLastLine("demo>")

        // Not the first word: nothing is completed (and no file names either).
        try await session.type("say /he")
        try await session.press("Tab")
        try await session.press("Enter")
        try await session.waitFor("the uncompleted line") { $0.contains("you said: say /he") }
        #expect(!(try await session.screen()).contains("you said: say /help"))
    }

    @Test func tabCompletesWordsAddedOnceTheGameIsKnown() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        try await session.type("/bo")
        try await session.press("Tab")
        try await session.press("Enter")
        try await session.waitFor("the line as typed") { $0.contains("you said: /bo") }
        try await session.type("/complete /board /bonus")
        try await session.press("Enter")
        // The words are added by the program's reading loop, after readline has handed it the
        // line: a Tab pressed before then (a busy machine) would find nothing to complete.
        try await session.waitFor("the words added") { $0.contains("completing also: /board /bonus") }
        try await session.type("/boa")
        try await session.press("Tab")
        try await session.waitForLastLine("demo> /board")
        try await session.press("Enter")
        try await session.waitFor("the added command completed") { $0.contains("you said: /board") }
    }

    @Test func controlCClearsTheLineAndKeepsRunning() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        try await session.type("abandon this")
        try await session.waitForLastLine("demo> abandon this")
        try await session.press("C-c")
        try await session.waitFor("a fresh prompt after ^C, and the program told") { lines in
            lines.last == "demo>" && lines.contains("demo> abandon this^C") && lines.contains("(line cleared)")
        }
        try await session.press("C-c")
        try await session.waitFor("Ctrl-C on an empty line reported as such") { lines in
            lines.last == "demo>" && lines.contains("(interrupted)")
        }
        try await session.type("ok")
        try await session.press("Enter")
        try await session.waitFor("the echo of the next line") { $0.contains("you said: ok") }
        let screen = try await session.screen()
        #expect(!screen.contains { $0.contains("you said: abandon") })
        #expect(try await session.exitStatus() == nil)
    }

    @Test("Lines the program keeps out of the history are not recalled by Up")
    func historyFilter() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        for line in ["keep me", "/forget me"] {
            try await session.type(line)
            try await session.press("Enter")
            try await session.waitFor("the echo of \(line)") { $0.contains("you said: \(line)") }
        }
        try await session.press("Up")
        try await session.waitForLastLine("demo> keep me")
    }

    @Test("A hidden line never shows, not even redrawn under messages, and stays out of the history")
    func hiddenLine() async throws {
        let session = try await startDemo(["--ticks"])
        defer { session.kill() }
        try await session.type("/secret")
        try await session.press("Enter")
        try await session.waitForLastLine("secret>")
        try await session.type("hunter2")
        let ticksSeen = Self.highestTick(try await session.screen())
        try await session.waitFor("two more ticks") { Self.highestTick($0) >= ticksSeen + 2 }
        #expect(try await session.screen().last == "secret>")
        #expect(try await session.cursor().x == "secret> ".count)
        try await session.press("Enter")
        try await session.waitFor("the length of the secret") { $0.contains("the secret has 7 characters") }
        try await session.waitForLastLine("demo>")
        #expect(!(try await session.screen()).contains { $0.contains("hunter2") })
        try await session.press("Up")
        try await session.waitForLastLine("demo> /secret")
        // Ctrl-C abandons a hidden line and brings the prompt back.
        try await session.press("C-u")
        try await session.type("/secret")
        try await session.press("Enter")
        try await session.waitForLastLine("secret>")
        try await session.type("oops")
        try await session.press("C-c")
        try await session.waitForLastLine("demo>")
        try await session.type("seen")
        try await session.waitForLastLine("demo> seen")
        #expect(!(try await session.screen()).contains { $0.contains("oops") })
    }

    @Test func setPromptRedrawsTheLine() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        try await session.type("/prompt guess> ")
        try await session.press("Enter")
        try await session.waitForLastLine("guess>")
        try await session.type("12")
        try await session.waitForLastLine("guess> 12")
        #expect(try await session.cursor().x == "guess> 12".count)
    }

    @Test func controlDOnAnEmptyLineEndsInputAndRestoresTheTerminal() async throws {
        let session = try await startDemo()
        defer { session.kill() }
        try await session.type("x")
        try await session.press("C-d")       // not empty: deletes forward (nothing), keeps running
        try await session.press("BSpace")
        try await session.waitForLastLine("demo>")
        try await session.press("C-d")
        try await session.waitFor("the goodbye") { $0.contains("bye (end of input)") }
        #expect(try await session.waitForExit() == 0)
    }
}
