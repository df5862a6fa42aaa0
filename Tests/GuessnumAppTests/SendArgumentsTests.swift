import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import Testing

/// What `guessnum send` is given, read without running it.
@Suite("The files and the receiver send is given", .timeLimit(.minutes(1)))
struct SendArgumentsTests {
    @Test("The last of two or more arguments is the receiver when it is no file; a file stays a file; each mistake is its own sentence")
    func reading() throws {
        let folder = Scratch.path("guessnum-send-arguments")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (a, b) = (folder.appendingPathComponent("a.txt").path, folder.appendingPathComponent("b.txt").path)
        for file in [a, b] { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }

        let one = try SendArguments([a, "127.0.0.1:7777"])
        #expect(one.items == [a] && !one.isSet)
        guard case .address(let endpoint)? = one.target else { Issue.record("no address: \(String(describing: one.target))"); return }
        #expect(endpoint.description == "127.0.0.1:7777")
        let two = try SendArguments([a, b])
        #expect(two.items == [a, b] && two.target == nil && two.isSet, "two files, no receiver")
        #expect(try SendArguments([folder.path]).isSet, "a folder goes as a set")

        func sentence(_ arguments: [String], to: String? = nil, as name: String? = nil) -> String? {
            do { _ = try SendArguments(arguments, named: to, fileName: name); return nil } catch { return error.message }
        }
        #expect(sentence([]) == "Name a file or folder to send.")
        #expect(sentence(["/nonexistent/x"]) == "There is no file /nonexistent/x.")
        #expect(sentence([a, "nowhere:port"])?.hasPrefix("There is no file nowhere:port, and as the receiver: ") == true)
        #expect(sentence([a, "127.0.0.1:7777"], to: "rita") == "Give either an address or code, or --to, not both.")
        #expect(sentence([a, b], as: "c.txt") == "--as names the one file sent; it cannot name several files or a folder.")
        #expect(sentence([a], as: "../c.txt") != nil, "an unsafe name is refused")
        #expect(try SendArguments([a], fileName: "c.txt").target == nil)
    }
}
