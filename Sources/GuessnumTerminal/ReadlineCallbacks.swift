import CReadline
import Foundation
import Synchronization

// MARK: - Readline's callbacks (C function pointers: plain global functions, no context)

/// The open session: only one may be open at a time, since readline is one per process.
let activeSession = Mutex<ReadlineSession?>(nil)

/// The words Tab completes.
let slashCompletions = Mutex<[String]>([])

extension ReadlineSession {
    /// Adds `words` to what Tab completes, each once (a game's commands, once the game is known).
    static func complete(also words: [String]) {
        slashCompletions.withLock { completions in
            for word in words where !completions.contains(word) { completions.append(word) }
        }
    }
}

func readlineLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    let text = line.map { String(cString: $0) }
    free(line)
    ReadlineLoop.current?.lineEntered(text)
}

/// Completes the first word of the line when it starts with "/"; never falls back to
/// readline's filename completion.
func attemptCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    creadline_set_attempted_completion_over()
    guard let text, String(cString: text).hasPrefix("/") else { return nil }
    if start > 0, let buffer = creadline_line_buffer() {
        let before = UnsafeBufferPointer(start: buffer, count: Int(start))
        guard before.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
    }
    return rl_completion_matches(text, slashCompletionGenerator)
}

/// Readline's generator protocol: called with state 0, 1, 2… until it returns NULL; each
/// match is a malloc'ed string that readline frees.
func slashCompletionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard let text else { return nil }
    let prefix = String(cString: text)
    let matches = slashCompletions.withLock { $0 }.filter { $0.hasPrefix(prefix) }
    guard Int(state) < matches.count else { return nil }
    return strdup(matches[Int(state)])
}
