import Multipeer
import Synchronization

/// The progress of a set of files as one line: the bytes of the files that ended, plus what
/// each file under way has come to, through one ``TransferMeter``. Files are followed as they
/// start and let go of as they end, so it holds nothing per file that ended.
final class SetProgress: Sendable {
    private struct State {
        var meter: TransferMeter
        var ended: Int64 = 0
        var running: [Int: Int64] = [:]
        var nextFile = 0
    }

    /// The name the line starts with, and under which it is shown.
    let name: String
    let totalBytes: Int64
    private let state: Mutex<State>

    init(name: String, totalBytes: Int64) {
        self.name = name
        self.totalBytes = totalBytes
        state = Mutex(State(meter: TransferMeter(name: name)))
    }

    /// The bytes done so far, in all.
    var completedBytes: Int64 {
        state.withLock { $0.ended + $0.running.values.reduce(0, +) }
    }

    /// Shows the set's progress on `output` with each step of one file's `updates`, until
    /// they end; calls `arrived` once, at the first step that has all the file's bytes.
    func follow(_ updates: AsyncStream<ResourceProgress>, on output: any DropOutput, arrived: @Sendable () -> Void = {}) async {
        let file = state.withLock { state in
            defer { state.nextFile += 1 }
            state.running[state.nextFile] = 0
            return state.nextFile
        }
        var whole = false
        for await step in updates {
            if !whole, step.completedBytes >= step.totalBytes {
                whole = true
                arrived()
            }
            let line = state.withLock { state in
                state.running[file] = step.completedBytes
                let done = min(totalBytes, state.ended + state.running.values.reduce(0, +))
                return (state.meter.line(for: ResourceProgress(completedBytes: done, totalBytes: totalBytes)), totalBytes == 0 ? 1 : Double(done) / Double(totalBytes))
            }
            if line.1 > 0 { output.progress(of: name, line.0, fraction: line.1) }
        }
        state.withLock { state in
            state.ended += state.running.removeValue(forKey: file) ?? 0
        }
    }
}
