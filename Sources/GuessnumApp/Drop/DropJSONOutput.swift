import Foundation
import Synchronization

/// The file drop's output for scripts (`guessnum send --json`, `guessnum receive --json`): one
/// JSON object a line — each sentence a `message` event (`{"event":"message","text":…}`), a
/// transfer's progress a `progress` event at each whole percent
/// (`{"event":"progress","data":{"name":…,"percent":…,"fraction":…,"text":…}}`).
public final class DropJSONOutput: DropOutput {
    private let write: @Sendable (String) -> Void
    /// The last percent written for each transfer, by name.
    private let percents = Mutex<[String: Int]>([:])

    /// Output to standard output.
    public convenience init() {
        self.init { text in FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    /// Output through `write`, one JSON object a call.
    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public func line(_ text: String) {
        write(JSONLines.message(text))
    }

    public func progress(of name: String, _ text: String, fraction: Double) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        let isNew = percents.withLock { percents in
            guard percents[name].map({ percent > $0 }) ?? true else { return false }
            percents[name] = percent
            return true
        }
        guard isNew else { return }
        write(JSONLines.line("progress", Progress(name: name, percent: percent, fraction: fraction, text: text)))
    }

    /// A progress event's data.
    private struct Progress: Encodable {
        let name: String
        let percent: Int
        let fraction: Double
        let text: String
    }
}
