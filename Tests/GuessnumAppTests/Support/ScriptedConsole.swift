import GuessnumTerminal
import MultipeerTestSupport

/// A console for unit tests: it records what the program prints; what the person types is
/// posted to the REPL's inbox by the test.
final class ScriptedConsole: Console {
    let isInteractive: Bool
    private let printed = Locked<[String]>([])
    private let diagnostics = Locked<[String]>([])
    private let prompts = Locked<[String]>([])
    private let resumed = Locked(0)

    /// How often input was resumed after it ended.
    var resumeCount: Int { resumed.value }

    init(interactive: Bool = false) {
        isInteractive = interactive
    }

    /// Every line printed so far (a message of several lines counts as several).
    var lines: [String] { printed.value.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } }
    /// Every diagnostic printed so far.
    var diagnosticLines: [String] { diagnostics.value }
    /// The prompt now ("(hidden) PROMPT" while a hidden line is asked for).
    var prompt: String? { prompts.value.last }
    /// Every prompt shown so far, in order.
    var allPrompts: [String] { prompts.value }

    func print(_ text: String) { printed.withLock { $0.append(text) } }
    func printDiagnostic(_ text: String) { diagnostics.withLock { $0.append(text) } }
    func setPrompt(_ prompt: String) { prompts.withLock { $0.append(prompt) } }
    func hideNextLine(prompt: String) { prompts.withLock { $0.append("(hidden) " + prompt) } }
    func close() {}
    func resumeInput() { resumed.withLock { $0 += 1 } }

    /// Waits (up to `timeout`) for a printed line containing `text`; returns it.
    func line(containing text: String, within timeout: Duration = .seconds(30)) async -> String? {
        await firstMatch(in: { lines }, within: timeout) { $0.contains(text) }
    }

    /// Waits (up to `timeout`) for a printed line that `matches`; returns it.
    func line(within timeout: Duration = .seconds(30), where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        await firstMatch(in: { lines }, within: timeout, where: matches)
    }

    /// How many printed lines contain `text`.
    func count(_ text: String) -> Int { lines.filter { $0.contains(text) }.count }

    /// The transcript, for failure messages.
    var transcript: String { lines.joined(separator: "\n") }
}
