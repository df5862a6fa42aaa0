import Foundation
@testable import GuessnumApp
import Synchronization
import Testing

/// `guessnum send --json` and `guessnum receive --json`: one JSON object a line for scripts.
@Suite("The file drop's JSON output", .timeLimit(.minutes(1)))
struct DropJSONOutputTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var objects: [[String: Any]] {
            lines.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        var count: Int { lines.withLock { $0.count } }
    }

    @Test("Every sentence is a message event, and a transfer's progress a progress event at each whole percent, never backwards")
    func events() throws {
        let written = Lines()
        let out = DropJSONOutput(write: written.append)
        out.line("Offering “photos/a \"b\".jpg” (2 MB) to rita; waiting for an answer.")
        for step in 0...1000 { out.progress(of: "a.jpg", "a.jpg: \(step / 10) %", fraction: Double(step) / 1000) }
        out.progress(of: "a.jpg", "a.jpg: again", fraction: 0.5)
        out.progress(of: "b.jpg", "b.jpg: 0 %", fraction: 0)
        let objects = written.objects
        #expect(objects.count == written.count, "every line is one JSON object")
        #expect(objects.first?["event"] as? String == "message")
        #expect((objects.first?["text"] as? String)?.contains("photos/a \"b\".jpg") == true)
        let progress = objects.filter { $0["event"] as? String == "progress" }.compactMap { $0["data"] as? [String: Any] }
        let percents = progress.filter { $0["name"] as? String == "a.jpg" }.compactMap { $0["percent"] as? Int }
        #expect(percents == Array(0...100), "each whole percent once, in order: \(percents)")
        #expect(progress.last?["name"] as? String == "b.jpg" && progress.last?["percent"] as? Int == 0, "each transfer counts its own")
    }
}
