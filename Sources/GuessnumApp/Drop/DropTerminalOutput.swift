import Foundation
import Synchronization

/// The file drop's output on standard output: at a terminal the progress line is redrawn in
/// place, and the `> ` prompt of the list of receivers stays below the lines that arrive while
/// the person types; in a pipe or a file, a transfer's progress is written at each quarter of
/// the way, and no prompt is shown.
public final class DropTerminalOutput: DropOutput {
    private let isTerminal: Bool
    private let prompts: Bool
    private let write: @Sendable (String) -> Void
    private struct State {
        var progressShown = false
        var prompt: String?
        var quarters: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Output to standard output, redrawn in place when it is a terminal.
    public convenience init() {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        self.init(isTerminal: isTerminal, prompts: isTerminal && isatty(STDIN_FILENO) == 1) { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Output through `write`, as to a terminal when `isTerminal`, with prompts when `prompts`
    /// (the person types at that terminal).
    init(isTerminal: Bool, prompts: Bool, write: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.prompts = prompts
        self.write = write
    }

    public func line(_ text: String) {
        state.withLock { state in
            if state.progressShown || state.prompt != nil { write("\r\u{1B}[K") }
            state.progressShown = false
            write(text + "\n")
            if let prompt = state.prompt { write(prompt) }
        }
    }

    /// Shows `prompt` (at a terminal only) until ``promptAnswered()``: lines written meanwhile
    /// go above it.
    public func prompt(_ prompt: String) {
        guard prompts else { return }
        state.withLock { state in
            state.prompt = prompt
            write(prompt)
        }
    }

    /// The person pressed Enter: the prompt's line is theirs now.
    public func promptAnswered() {
        state.withLock { $0.prompt = nil }
    }

    public func progress(of name: String, _ text: String, fraction: Double) {
        state.withLock { state in
            if isTerminal {
                write("\r\u{1B}[K" + text)
                state.progressShown = true
                return
            }
            let quarter = Int(fraction * 4)
            guard quarter > state.quarters[name, default: 0] else { return }
            state.quarters[name] = quarter
            write(text + "\n")
        }
    }
}
