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

    @Test("A name from the network shows every character it has: formatting characters and quotation marks are replaced too", arguments: [
        ("report.pdf", "“report.pdf”"),
        ("pay\u{200B}pal.pdf", "“pay\u{FFFD}pal.pdf”"),               // zero-width space
        ("a\u{200D}b\u{2060}c\u{FEFF}d\u{AD}e", "“a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e”"),
        ("a.pdf” (1 kB). Save it?", "“a.pdf\u{FFFD} (1 kB). Save it?”"),
        ("line\u{2028}two", "“line\u{FFFD}two”"),
        ("\u{202E}fdp.exe", "“\u{FFFD}fdp.exe”"),
        ("naïve 中文.txt", "“naïve 中文.txt”"),
    ])
    func namesAreShownWhole(input: String, expected: String) {
        #expect(TerminalText.quotedName(input) == expected)
    }

    @Test func ordinaryTextIsKept() {
        let text = "Zoë guessed 42 🎯 — ünïcödé, 中文, עברית"
        #expect(TerminalText.sanitized(text) == text)
        #expect(TerminalText.sanitized("") == "")
    }
}
