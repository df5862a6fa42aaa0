@testable import GuessnumApp
import Testing

/// The command a mistyped one most likely meant.
@Suite("Mistyped commands", .timeLimit(.minutes(1)))
struct CommandSuggestionTests {
    let names = ["host", "join", "send", "receive", "doctor", "help"]

    @Test("One or two letters off names the command (missing, extra, wrong, two swapped); an option, an exact name or a word far off names none")
    func closest() {
        #expect(CommandSuggestion.closest(to: "hots", among: names) == "host", "two letters swapped")
        #expect(CommandSuggestion.closest(to: "jion", among: names) == "join")
        #expect(CommandSuggestion.closest(to: "recieve", among: names) == "receive")
        #expect(CommandSuggestion.closest(to: "doctr", among: names) == "doctor", "a letter missing")
        #expect(CommandSuggestion.closest(to: "sendd", among: names) == "send", "a letter extra")
        #expect(CommandSuggestion.closest(to: "host", among: names) == nil, "a command as it is")
        #expect(CommandSuggestion.closest(to: "--hots", among: names) == nil, "an option is the parser's")
        #expect(CommandSuggestion.closest(to: "play", among: names) == nil, "too far from any")
        #expect(CommandSuggestion.closest(to: "hp", among: names) == nil, "as far as it is long")
    }
}
