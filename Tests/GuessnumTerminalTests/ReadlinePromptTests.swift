@testable import GuessnumTerminal
import Testing

@Suite(.timeLimit(.minutes(1))) struct ReadlinePromptTests {
    @Test func escapeSequencesAreMarkedAsInvisible() {
        let style = TextStyle(isColored: true)
        #expect(ReadlinePrompt.marked(style.bold("guess") + "> ")
            == "\u{1}\u{1B}[1m\u{2}guess\u{1}\u{1B}[22m\u{2}> ")
    }

    @Test func plainAndAlreadyMarkedPromptsAreUnchanged() {
        #expect(ReadlinePrompt.marked("demo> ") == "demo> ")
        #expect(ReadlinePrompt.marked("\u{1}\u{1B}[1m\u{2}x> ") == "\u{1}\u{1B}[1m\u{2}x> ")
    }

    @Test func truncatedEscapesStayInsideTheMarkers() {
        #expect(ReadlinePrompt.marked("a\u{1B}") == "a\u{1}\u{1B}\u{2}")
        #expect(ReadlinePrompt.marked("a\u{1B}[3") == "a\u{1}\u{1B}[3\u{2}")
    }
}
