@testable import GuessnumApp
import Synchronization
import Testing

/// What the file drop writes: the list's `> ` prompt at a terminal, kept below lines that arrive
/// while the person types; nothing of it in a pipe.
@Suite("The file drop's terminal output", .timeLimit(.minutes(1)))
struct DropTerminalOutputTests {
    final class Written: Sendable {
        let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var value: String { text.withLock { $0 } }
    }

    @Test("At a terminal the list of receivers has a > prompt, and a receiver found while it waits is written above it")
    func promptAtATerminal() {
        let written = Written()
        let out = DropTerminalOutput(isTerminal: true, prompts: true, write: written.append)
        out.line("1) rita")
        out.prompt("> ")
        #expect(written.value == "1) rita\n> ")
        out.line("2) sam")
        #expect(written.value == "1) rita\n> \r\u{1B}[K2) sam\n> ", "the new line above, the prompt again below it")
        out.promptAnswered()
        out.line("Offering “a.txt”")
        #expect(written.value.hasSuffix("> Offering “a.txt”\n"), "after Enter the prompt is not drawn again: \(written.value)")
    }

    @Test("In a pipe, or when the person does not type at a terminal, there is no prompt")
    func noPromptInAPipe() {
        for (isTerminal, prompts) in [(false, false), (true, false)] {
            let written = Written()
            let out = DropTerminalOutput(isTerminal: isTerminal, prompts: prompts, write: written.append)
            out.line("1) rita")
            out.prompt("> ")
            out.line("2) sam")
            #expect(written.value == "1) rita\n2) sam\n")
        }
    }
}
