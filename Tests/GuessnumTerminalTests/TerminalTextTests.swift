import SafeText
import GuessnumTerminal
import Testing

@Suite(.timeLimit(.minutes(1))) struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}[2J", "\u{FFFD}[2J"),                  // ESC: clear screen
        ("a\u{9B}31mb", "a\u{FFFD}31mb"),              // C1 CSI
        ("bell\u{07}", "bell\u{FFFD}"),
        ("del\u{7F}", "del\u{FFFD}"),
        ("tab\there", "tab\u{FFFD}here"),
        ("two\nlines\r", "two\u{FFFD}lines\u{FFFD}"),  // newlines are replaced too
        ("abc\u{202E}cba", "abc\u{FFFD}cba"),          // right-to-left override
        ("\u{2066}isolate\u{2069}", "\u{FFFD}isolate\u{FFFD}"),
        ("mark\u{200E}", "mark\u{FFFD}"),
        ("line\u{2028}sep\u{2029}", "line\u{FFFD}sep\u{FFFD}"),
        ("\u{0}", "\u{FFFD}"),
    ])
    func controlsAreReplaced(input: String, expected: String) {
        #expect(TerminalText.sanitized(input) == expected)
    }

    @Test func ordinaryTextIsKept() {
        let text = "Zoë guessed 42 🎯 — ünïcödé, 中文, עברית"
        #expect(TerminalText.sanitized(text) == text)
        #expect(TerminalText.sanitized("") == "")
    }
}
