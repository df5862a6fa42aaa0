import Foundation
import GuessnumApp
import GuessnumTerminal
import Synchronization

/// The file drop's output on standard output: at a terminal the progress line is redrawn in
/// place; in a pipe or a file, a transfer's progress is written at each quarter of the way.
final class DropTerminalOutput: DropOutput {
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    private struct State {
        var progressShown = false
        var quarters: [String: Int] = [:]
    }

    private let state = Mutex(State())

    func line(_ text: String) {
        state.withLock { state in
            if state.progressShown { Self.write("\r\u{1B}[K") }
            state.progressShown = false
            Self.write(text + "\n")
        }
    }

    func progress(of name: String, _ text: String, fraction: Double) {
        state.withLock { state in
            if isTerminal {
                Self.write("\r\u{1B}[K" + text)
                state.progressShown = true
                return
            }
            let quarter = Int(fraction * 4)
            guard quarter > state.quarters[name, default: 0] else { return }
            state.quarters[name] = quarter
            Self.write(text + "\n")
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
