import Foundation
import MultipeerTestSupport
import Testing

/// Ctrl-C of `guessnum receive` in the middle of a file, with real processes on the test LAN.
extension FileDropLANTests {
    @Test("Ctrl-C of the receiver in the middle of a file keeps what arrived: it says so in one sentence and exits 0, the sender is told and exits 1, the partial file stays; `guessnum send` run again to the receiver run again goes on from there, and the file arrives identical")
    func receiverCtrlCKeepsWhatArrived() async throws {
        let size = 64 << 20
        let file = try randomFile(size)
        let folder = try inbox()
        try await slowSendersLink()  // about 13 s for the file
        let drop = try await startDrop(of: file, into: folder, port: 47306, once: false)
        let (first, sender, receive, send, rita, sam) = (drop.receiver, drop.sender, drop.receive, drop.send, drop.rita, drop.sam)
        defer { first.signal(SIGKILL) }
        defer { sender.signal(SIGKILL) }
        #expect(await awaitPercent(40, of: sender), "sender: \(sender.text)")
        first.signal(SIGINT)
        #expect(await first.exitStatus(within: .seconds(30)) == 0, "Ctrl-C ends the drop box: \(first.text)")
        #expect(first.text.contains("Stopped: what arrived of “lecture.mp4” is kept; when sam sends it again, it goes on from there."), "receiver: \(first.text)")
        #expect(await sender.exitStatus(within: .seconds(30)) == 1, "sender: \(sender.text)")
        #expect(sender.text.contains("“lecture.mp4” was not saved: rita stopped receiving; what arrived is kept, and sending it again goes on from there."), "sender: \(sender.text)")
        let partials = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(partials.count == 1 && partials.allSatisfy { $0.hasPrefix(".lecture.mp4.") && $0.hasSuffix(".part") }, "the partial file stays: \(partials)")
        let held = percent(of: first)

        let second = try lan.guessnum(on: 0, receive + ["--once"], environment: rita)
        defer { second.signal(SIGKILL) }
        #expect(await second.line(containing: "Receiving files into") != nil, "receiver: \(second.text)")
        let rerun = try lan.guessnum(on: 1, send, environment: sam)
        defer { rerun.signal(SIGKILL) }
        #expect(await rerun.exitStatus(within: .seconds(90)) == 0, "sender run again: \(rerun.text)")
        #expect(second.text.contains("kept from before, its chunks' SHA-256 checked"), "receiver: \(second.text)")
        let resumed = try #require(rerun.text.split(separator: "\n").first { $0.contains("Going on from ") }, "sender run again: \(rerun.text)")
        #expect(resumed.contains("what rita already has."), "\(resumed)")
        let startedAt = percents(of: rerun).first ?? 0
        #expect(startedAt + 2 >= held, "the run again started at \(startedAt) %, the receiver had \(held) % when it stopped (less at most the chunk under way)")
        #expect(await second.exitStatus(within: .seconds(30)) == 0, "receiver: \(second.text)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture.mp4")) == Data(contentsOf: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lecture.mp4"], "no partial file is left")
        try await restoreSendersLink()
    }
}
