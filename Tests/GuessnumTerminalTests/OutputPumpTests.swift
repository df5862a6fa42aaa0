import Foundation
import GuessnumTerminal
import MultipeerTestSupport
import Synchronization
import Testing

@Suite("Output that never waits for the terminal", .timeLimit(.minutes(1)))
struct OutputPumpTests {
    @Test("A full backlog counts what it drops, in place, and takes lines again once drained")
    func backlogBounds() {
        var backlog = OutputBacklog<String>(maximumLines: 3, maximumBytes: 1_000)
        for index in 0..<10 { backlog.append("line \(index)", bytes: 7) }
        backlog.appendUncounted("prompt")
        var seen: [String] = []
        while let entry = backlog.popFirst() {
            switch entry {
            case .item(let line): seen.append(line)
            case .skipped(let count): seen.append("skipped \(count)")
            }
        }
        #expect(seen == ["line 0", "line 1", "line 2", "skipped 7", "prompt"])
        let again = backlog.append("again", bytes: 5)
        #expect(again, "a drained backlog takes lines again")
    }

    @Test("The byte bound counts too: one 60 KB line fills a 64 KB backlog")
    func backlogBytes() {
        var backlog = OutputBacklog<String>(maximumLines: 100, maximumBytes: 64_000)
        let big = backlog.append("big", bytes: 60_000)
        let next = backlog.append("next", bytes: 5_000)
        let small = backlog.append("small", bytes: 100)
        #expect(big && !next && small)
    }

    @Test("While the writer is stuck, writing returns at once; afterwards the skipped lines are summarised")
    func stuckWriter() async throws {
        let gate = DispatchSemaphore(value: 0)
        let written = Locked<[String]>([])
        let stuck = Locked(false)
        let pump = OutputPump(maximumLines: 100, maximumBytes: 1 << 20) { text, _ in
            if text == "first" {
                stuck.withLock { $0 = true }
                gate.wait()
            }
            written.withLock { $0.append(text) }
        }
        pump.write("first")
        #expect(await eventually { stuck.value })
        // The writer is stuck on "first": 5,000 more lines must not wait for it.
        let writing = Task.detached { for index in 0..<5_000 { pump.write("line \(index)") } }
        _ = await writing.value
        gate.signal()
        #expect(pump.drain(timeout: .seconds(20)))
        let lines = written.value
        #expect(lines.first == "first")
        #expect(lines.count <= 102, "at most the backlog and one summary: \(lines.count) lines")
        #expect(lines.contains { $0.hasPrefix("… ") && $0.hasSuffix(" lines skipped: the terminal fell behind.") }, "\(lines.suffix(3))")
        #expect(lines.last == "line 4999" || lines.last?.hasPrefix("… ") == true)
    }
}
