import Foundation
import MultipeerTestSupport
import Testing

/// `ConsoleDemo` with pipes for standard input and output gets a `PlainConsole`.
@Suite(.timeLimit(.minutes(1))) struct PlainConsoleTests {
    private func startDemo(_ arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess(try builtExecutable(named: "ConsoleDemo"), arguments, environment: ["NO_COLOR": "1"])
    }

    @Test func readsLinesInOrderAndEndsAtEndOfInput() async throws {
        let demo = try startDemo()
        #expect(await demo.line(containing: "console: plain") != nil)
        demo.send(line: "first")
        demo.send(line: "")
        demo.send(line: "third one")
        #expect(await demo.line(containing: "you said: third one") != nil)
        demo.closeInput()
        #expect(await demo.exitStatus() == 0)
        let lines = demo.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == ["console: plain", "you said: first", "you said: ", "you said: third one", "bye (end of input)", ""])
    }

    @Test func showsNoPromptEvenWhenItChanges() async throws {
        let demo = try startDemo(["--prompt", "PROMPT> "])
        demo.send(line: "/prompt other> ")
        demo.send(line: "/quit")
        #expect(await demo.exitStatus() == 0)
        #expect(!demo.text.contains("PROMPT>"))
        #expect(!demo.text.contains("other>"))
        #expect(demo.text.hasSuffix("bye (quit)\n"))
    }

    @Test func messagesFromAnotherThreadAreWholeLines() async throws {
        let demo = try startDemo(["--ticks"])
        #expect(await demo.line(containing: "tick 1") != nil)
        for index in 0..<200 { demo.send(line: "line \(index) " + String(repeating: "x", count: 200)) }
        #expect(await demo.line(containing: "you said: line 199 ") != nil)
        #expect(await demo.line(containing: "tick 3") != nil)
        demo.closeInput()
        #expect(await demo.exitStatus() == 0)
        let pattern = /console: plain|tick \d+|you said: line \d+ x{200}|bye \(end of input\)/
        for line in demo.text.split(separator: "\n") {
            #expect(line.wholeMatch(of: pattern) != nil, "mangled line: \(line)")
        }
    }
}
