import Foundation
import MultipeerTestSupport
import Testing

/// The list `guessnum send` picks from, on the test LAN with real Avahi daemons: a receiver that
/// quits is said gone once, and picking it says so instead of blaming an address.
@Suite("The receivers' list on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.drop), .timeLimit(.minutes(2)))
struct DropReceiverListLANTests {
    let lan = TestLAN.drop

    @Test("A receiver that quits is said gone once in the sender's list, and picking its number says it is gone, not that an address refused")
    func receiverQuits() async throws {
        let folder = Scratch.path("drop-list-inbox")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = Scratch.path("drop-list-outbox").appendingPathComponent("note.txt")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: file)
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--name", "rhea"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "You are asked about each file.") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", file.path, "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        // Receivers of the tests before may linger in the daemons' caches: rhea by her number.
        let entry = try #require(await sender.line(containing: ") rhea", within: .seconds(30)), "sender: \(sender.text)")
        let number = try #require(entry.split(separator: ")").first.map(String.init), "\(entry)")

        receiver.signal(SIGINT)
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "receiver: \(receiver.text)")
        #expect(await sender.line(containing: "\(number)) rhea is gone", within: .seconds(30)) != nil, "sender: \(sender.text)")
        sender.send(line: number)
        #expect(await sender.line(containing: "rhea (\(number)) is gone: it stopped receiving") != nil, "sender: \(sender.text)")
        #expect(!sender.text.contains("Could not connect"), "sender: \(sender.text)")
        #expect(sender.text.components(separatedBy: "rhea is gone").count == 2, "said gone once: \(sender.text)")
        sender.closeInput()
        #expect(await sender.exitStatus(within: .seconds(30)) != nil, "sender: \(sender.text)")
    }
}
