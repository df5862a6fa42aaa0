import Foundation
import MultipeerTestSupport
import Testing

/// `guessnum send` and `guessnum receive` as people use them, on the test LAN: the receiver on
/// host 0 announced through Avahi, the sender on host 1 finding it by name, each person with a
/// HOME of their own. The sender's link is slowed (`tc`), so that a transfer lasts long enough
/// to be cut in the middle.
@Suite("The file drop on the test LAN", .serialized, .enabled(if: lanTestsEnabled), .testLAN(.drop), .timeLimit(.minutes(3)))
struct FileDropLANTests {
    let lan = TestLAN.drop

    /// A file of `count` random bytes in a directory of its own.
    func randomFile(_ count: Int) throws -> URL {
        let directory = Scratch.path("drop-outbox")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("lecture.mp4")
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw TestFailure("no /dev/urandom") }
        defer { try? random.close() }
        try random.readData(ofLength: count).write(to: url)
        return url
    }

    /// Writes `count` files of `bytes` random bytes each, file `index` (from 1) at `url(index)`.
    func writeRandomFiles(_ count: Int, of bytes: Int, at url: (Int) -> URL) throws {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw TestFailure("no /dev/urandom") }
        defer { try? random.close() }
        for index in 1...count { try random.readData(ofLength: bytes).write(to: url(index)) }
    }

    /// Takes the sender's link (host 1) down for `pause`, then up again: the sender says the link
    /// to rita dropped, and that it is connected to her again.
    func cutSendersLink(for pause: Duration, sender: ChildProcess) async throws {
        try await lan.setLink(of: 1, up: false)
        #expect(await sender.line(containing: "The link to rita dropped; connecting again", within: .seconds(30)) != nil, "sender: \(sender.text)")
        try await Task.sleep(for: pause)
        try await lan.setLink(of: 1, up: true)
        #expect(await sender.line(containing: "Connected to rita again.", within: .seconds(40)) != nil, "sender: \(sender.text)")
    }

    func inbox() throws -> URL {
        let url = Scratch.path("drop-inbox")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Limits what the sender's host (1) sends to 40 Mbit/s, so a transfer lasts long enough to
    /// be cut or cancelled in the middle.
    func slowSendersLink() async throws {
        let shaping = try lan.start(on: 1, ["tc", "qdisc", "replace", "dev", "lan0", "root", "tbf", "rate", "40mbit", "burst", "64kb", "latency", "200ms"])
        #expect(await shaping.exitStatus(within: .seconds(10)) == 0, "tc: \(shaping.text)")
    }

    func restoreSendersLink() async throws {
        _ = await (try lan.start(on: 1, ["tc", "qdisc", "del", "dev", "lan0", "root"])).exitStatus(within: .seconds(10))
    }

    @Test("A file found by name, sent over a link cut for 4 s in the middle: both sides say so, the sender connects again by itself and goes on from what the receiver holds, and the file arrives whole")
    func cutAndResumed() async throws {
        let file = try randomFile(24 << 20)
        let folder = try inbox()
        try await slowSendersLink()  // about 5 s for the file

        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--yes", "--once", "--name", "rita"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into \(folder.path) as rita") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", file.path, "--to", "rita", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        #expect(await sender.line(containing: "Offering “lecture.mp4” (25.2 MB) to rita") != nil, "sender: \(sender.text)")
        #expect(await receiver.line(containing: "Receiving “lecture.mp4” (25.2 MB) from sam") != nil, "receiver: \(receiver.text)")
        #expect(await sender.line(containing: "lecture.mp4  25%") != nil, "sender: \(sender.text)")

        try await cutSendersLink(for: .seconds(4), sender: sender)
        #expect(await sender.line(containing: "Going on from ") != nil, "sender: \(sender.text)")
        #expect(await sender.exitStatus(within: .seconds(60)) == 0, "sender: \(sender.text)")
        #expect(sender.text.contains("rita saved “lecture.mp4” (25.2 MB), its SHA-256 checked."), "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "receiver: \(receiver.text)")
        #expect(receiver.text.contains("Saved “lecture.mp4” from sam as \(folder.path)/lecture.mp4, its SHA-256 checked."), "receiver: \(receiver.text)")

        // Resumed, not restarted: the sender went on from more than nothing.
        let resumedAt = sender.text.split(separator: "\n").first { $0.hasPrefix("Going on from ") } ?? ""
        #expect(!resumedAt.hasPrefix("Going on from 0 B"), "\(resumedAt)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture.mp4")) == Data(contentsOf: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lecture.mp4"], "no partial file is left")
        try await restoreSendersLink()
    }

    @Test("With --json, sender and receiver write one JSON object a line: their sentences as messages, the transfer's progress up to 100 %")
    func jsonLines() async throws {
        let file = try randomFile(2 << 20)
        let folder = try inbox()
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--yes", "--once", "--json", "--name", "rita"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", file.path, "--to", "rita", "--json", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        #expect(await sender.exitStatus(within: .seconds(60)) == 0, "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "receiver: \(receiver.text)")
        for (side, text) in [("sender", sender.text), ("receiver", receiver.text)] {
            let objects = text.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(!objects.isEmpty && objects.allSatisfy { $0?["event"] is String }, "\(side): every line is a JSON event: \(text)")
            let percents = objects.compactMap { $0?["event"] as? String == "progress" ? ($0?["data"] as? [String: Any])?["percent"] as? Int : nil }
            #expect(percents.last == 100 && percents == percents.sorted(), "\(side): progress up to 100 %: \(percents)")
        }
        #expect(sender.text.contains("rita saved “lecture.mp4”"), "sender: \(sender.text)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture.mp4")) == Data(contentsOf: file))
    }

    @Test("Ctrl-C in the middle of a transfer: the sender exits 130, the receiver says sam cancelled it and keeps nothing")
    func interrupted() async throws {
        let file = try randomFile(16 << 20)
        let folder = try inbox()
        try await slowSendersLink()
        let address = try await lan.address(of: 0)
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--yes", "--once", "--name", "ruth", "--port", "47301"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", file.path, "\(address):47301", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        #expect(await sender.line(containing: "lecture.mp4  25%") != nil, "sender: \(sender.text)")
        sender.signal(SIGINT)
        #expect(await sender.exitStatus(within: .seconds(30)) == 130, "sender: \(sender.text)")
        #expect(sender.text.contains("“lecture.mp4” was cancelled by this side; nothing of it was kept."), "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 1, "--once and not saved: \(receiver.text)")
        #expect(receiver.text.contains("“lecture.mp4” was cancelled by sam; nothing of it was kept."), "receiver: \(receiver.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no partial file is left")
        try await restoreSendersLink()
    }

    @Test("A file and a folder of nested folders sent by address: the receiver is asked once for the set, the tree arrives identical under its directory, the link inside stays behind, and both sides show the set's progress and say how it ended")
    func folderWithNestedFolders() async throws {
        let outbox = Scratch.path("drop-folder-outbox")
        let photos = outbox.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("2024/summer"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("notes/deep/deeper"), withIntermediateDirectories: true)
        try writeRandomFiles(20, of: 50_000) { index in photos.appendingPathComponent("2024/summer/beach-\(index).jpg") }
        try Data("top".utf8).write(to: photos.appendingPathComponent("2024/top.txt"))
        try Data("# deep".utf8).write(to: photos.appendingPathComponent("notes/deep/deeper/n.md"))
        try Data("notes".utf8).write(to: outbox.appendingPathComponent("notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        let folder = try inbox()
        let address = try await lan.address(of: 0)
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--once", "--name", "rosa", "--port", "47302"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", outbox.appendingPathComponent("notes.txt").path, photos.path, "\(address):47302", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        #expect(await receiver.line(containing: "sam offers a file and a folder: 23 files, 1.0 MB. Save them in \(folder.path)? [y/N]") != nil, "receiver: \(receiver.text)")
        receiver.send(line: "y")
        #expect(await sender.exitStatus(within: .seconds(60)) == 0, "sender: \(sender.text)")
        #expect(sender.text.contains("“photos/passwd” is left out: it is a symbolic link, which is not followed."), "sender: \(sender.text)")
        #expect(sender.text.contains("23 files  100%  1.0 MB of 1.0 MB"), "the set's progress: \(sender.text)")
        #expect(sender.text.contains("rosa saved all 23 files (1.0 MB), each one's SHA-256 checked."), "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "--once, all saved: \(receiver.text)")
        #expect(receiver.text.contains("Saved all 23 files (1.0 MB) from sam in \(folder.path), each one's SHA-256 checked."), "receiver: \(receiver.text)")
        #expect(receiver.text.split(separator: "\n").filter { $0.contains("[y/N]") }.count == 1, "one question: \(receiver.text)")

        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["notes.txt", "photos"])
        let received = folder.appendingPathComponent("photos")
        #expect(!FileManager.default.fileExists(atPath: received.appendingPathComponent("passwd").path), "no link is made")
        for index in 1...20 {
            let path = "2024/summer/beach-\(index).jpg"
            #expect(try Data(contentsOf: received.appendingPathComponent(path)) == Data(contentsOf: photos.appendingPathComponent(path)), "\(path)")
        }
        #expect(try Data(contentsOf: received.appendingPathComponent("notes/deep/deeper/n.md")) == Data("# deep".utf8))
        #expect(try Data(contentsOf: received.appendingPathComponent("2024/top.txt")) == Data("top".utf8))
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.txt")) == Data("notes".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: received.appendingPathComponent("2024/summer").path).count == 20, "no partial file is left")
    }

    @Test("A folder whose link is cut for 4 s in the middle of the set: the sender connects again by itself, the files under way go on from what the receiver holds, the others follow, and every file arrives whole")
    func folderCutAndResumed() async throws {
        let outbox = Scratch.path("drop-cut-outbox")
        let album = outbox.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album.appendingPathComponent("raw"), withIntermediateDirectories: true)
        try writeRandomFiles(30, of: 800_000) { index in album.appendingPathComponent("raw/\(index).raw") }
        let folder = try inbox()
        try await slowSendersLink()  // about 5 s for the set

        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--yes", "--once", "--name", "rita"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into \(folder.path) as rita") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", album.path, "--to", "rita", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        #expect(await sender.line(containing: "Offering a folder: 30 files, 24.0 MB to rita") != nil, "sender: \(sender.text)")
        // In a pipe the set's progress is written at each quarter: the first line is past a quarter.
        #expect(await sender.line(containing: "MB of 24.0 MB") != nil, "sender: \(sender.text)")

        try await cutSendersLink(for: .seconds(4), sender: sender)
        #expect(await sender.exitStatus(within: .seconds(90)) == 0, "sender: \(sender.text)")
        #expect(sender.text.contains("rita saved all 30 files (24.0 MB), each one's SHA-256 checked."), "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "receiver: \(receiver.text)")
        #expect(receiver.text.contains("Saved all 30 files (24.0 MB) from sam in \(folder.path), each one's SHA-256 checked."), "receiver: \(receiver.text)")
        for index in 1...30 {
            let path = "raw/\(index).raw"
            #expect(try Data(contentsOf: folder.appendingPathComponent("album/" + path)) == Data(contentsOf: album.appendingPathComponent(path)), "\(path)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("album/raw").path).count == 30, "no partial file is left")
        try await restoreSendersLink()
    }

    @Test("Ctrl-C in the middle of a set: the sender exits 130 saying what was saved by then, the receiver ends the set with its count (exit 1 with --once), every file it kept is whole, and no partial file is left")
    func folderInterrupted() async throws {
        let outbox = Scratch.path("drop-stop-outbox")
        let album = outbox.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try writeRandomFiles(20, of: 800_000) { index in album.appendingPathComponent("\(index).raw") }
        let folder = try inbox()
        try await slowSendersLink()
        let address = try await lan.address(of: 0)
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--yes", "--once", "--name", "ruth", "--port", "47303"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, ["send", album.path, "\(address):47303", "--name", "sam"])
        defer { sender.signal(SIGKILL) }
        // In a pipe the set's progress is written at each quarter: the first line is past a quarter.
        #expect(await sender.line(containing: "MB of 16.0 MB") != nil, "sender: \(sender.text)")
        sender.signal(SIGINT)
        #expect(await sender.exitStatus(within: .seconds(30)) == 130, "sender: \(sender.text)")
        #expect(sender.text.contains("Stopped: ruth had saved "), "sender: \(sender.text)")
        #expect(await receiver.exitStatus(within: .seconds(30)) == 1, "--once and not all saved: \(receiver.text)")
        #expect(receiver.text.contains("of the 20 files"), "receiver: \(receiver.text)")
        #expect(receiver.text.contains("not saved (said above, or never sent)."), "receiver: \(receiver.text)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("album").path)
        #expect(!kept.isEmpty && kept.count < 20, "\(kept)")
        #expect(kept.allSatisfy { $0.hasSuffix(".raw") && !$0.hasPrefix(".") }, "no partial file is left: \(kept)")
        for name in kept {
            #expect(try Data(contentsOf: folder.appendingPathComponent("album/" + name)) == Data(contentsOf: album.appendingPathComponent(name)), "\(name)")
        }
        try await restoreSendersLink()
    }

    @Test("Picked from the list and asked at the prompt, the receiver says no: the sender is told why and exits 3, nothing is written; sent by address, a name already taken is never overwritten; Ctrl-C closes the box")
    func declinedThenNoOverwrite() async throws {
        let file = try randomFile(100_000)
        let folder = try inbox()
        let address = try await lan.address(of: 0)
        let receiver = try lan.guessnum(on: 0, ["receive", folder.path, "--name", "rosa", "--port", "47300"])
        defer { receiver.signal(SIGKILL) }
        #expect(await receiver.line(containing: "You are asked about each file.") != nil, "receiver: \(receiver.text)")
        // Picked from the live list of receivers nearby, by its number.
        let declined = try lan.guessnum(on: 1, ["send", file.path, "--name", "sam"])
        defer { declined.signal(SIGKILL) }
        // Receivers of the tests before may linger in the daemons' caches: pick rosa by her number.
        let entry = try #require(await declined.line(containing: ") rosa", within: .seconds(30)), "sender: \(declined.text)")
        let number = try #require(entry.split(separator: ")").first.map(String.init), "\(entry)")
        declined.send(line: "77")
        #expect(await declined.line(containing: "There is no receiver 77 in the list.") != nil, "sender: \(declined.text)")
        declined.send(line: number)
        #expect(await receiver.line(containing: "sam offers “lecture.mp4” (100.0 kB). Save it in \(folder.path)? [y/N]") != nil, "receiver: \(receiver.text)")
        receiver.send(line: "n")
        #expect(await declined.exitStatus(within: .seconds(30)) == 3, "sender: \(declined.text)")
        #expect(declined.text.contains("rosa declined “lecture.mp4”: rosa said no."), "sender: \(declined.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        try Data("rosa's own".utf8).write(to: folder.appendingPathComponent("lecture.mp4"))
        let accepted = try lan.guessnum(on: 1, ["send", file.path, "\(address):47300", "--name", "sam"])
        defer { accepted.signal(SIGKILL) }
        #expect(await receiver.line(containing: "Save it in", within: .seconds(30)) != nil)
        receiver.send(line: "y")
        #expect(await accepted.exitStatus(within: .seconds(30)) == 0, "sender: \(accepted.text)")
        #expect(await receiver.line(containing: "as \(folder.path)/lecture (2).mp4") != nil, "receiver: \(receiver.text)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture.mp4")) == Data("rosa's own".utf8))
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture (2).mp4")) == Data(contentsOf: file))
        receiver.signal(SIGINT)
        #expect(await receiver.exitStatus(within: .seconds(30)) == 0, "Ctrl-C ends the drop box: \(receiver.text)")
    }

    /// Rita's `guessnum receive` of `folder` on host 0 (port `port`, `--yes --json`, `--once`
    /// when `once`) and, once it listens, sam's `guessnum send` of `item` from host 1 to its
    /// address, each with a HOME of their own; with what runs each again.
    struct DropRun {
        let receiver: ChildProcess
        let sender: ChildProcess
        let receive: [String]
        let send: [String]
        let rita: [String: String]
        let sam: [String: String]
    }

    func startDrop(of item: URL, into folder: URL, port: Int, once: Bool) async throws -> DropRun {
        let address = try await lan.address(of: 0)
        let rita = personEnvironment()
        let sam = personEnvironment()
        let receive = ["receive", folder.path, "--yes"] + (once ? ["--once"] : []) + ["--json", "--name", "rita", "--port", "\(port)"]
        let send = ["send", item.path, "\(address):\(port)", "--json", "--name", "sam"]
        let receiver = try lan.guessnum(on: 0, receive, environment: rita)
        #expect(await receiver.line(containing: "Receiving files into") != nil, "receiver: \(receiver.text)")
        let sender = try lan.guessnum(on: 1, send, environment: sam)
        return DropRun(receiver: receiver, sender: sender, receive: receive.filter { $0 != "--once" }, send: send, rita: rita, sam: sam)
    }

    /// The whole percents of the JSON progress `process` printed, in order.
    func percents(of process: ChildProcess) -> [Int] {
        process.text.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("\"event\":\"progress\""), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["data"] as? [String: Any])?["percent"] as? Int
        }
    }

    /// The last whole percent of the JSON progress `process` printed (0 before any).
    func percent(of process: ChildProcess) -> Int {
        percents(of: process).max() ?? 0
    }

    /// Waits until `process` printed progress of `target` percent or more.
    func awaitPercent(_ target: Int, of process: ChildProcess, within timeout: Duration = .seconds(120)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while percent(of: process) < target {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test("kill -9 of the receiver at half the file, started again: the sender connects again by itself and goes on from the chunks the receiver kept (checked by their SHA-256), sending again at most 1 % + one chunk; then kill -9 of the sender at 70 %, run again: it goes on from what the receiver holds, and the file arrives identical")
    func restartsOfEitherProgram() async throws {
        let size = 64 << 20
        let file = try randomFile(size)
        let folder = try inbox()
        try await slowSendersLink()  // about 13 s for the file
        let drop = try await startDrop(of: file, into: folder, port: 47304, once: true)
        let (first, sender, receive, send, rita, sam) = (drop.receiver, drop.sender, drop.receive + ["--once"], drop.send, drop.rita, drop.sam)
        defer { first.signal(SIGKILL) }
        defer { sender.signal(SIGKILL) }
        #expect(await awaitPercent(50, of: sender), "sender: \(sender.text)")
        first.signal(SIGKILL)
        _ = await first.exitStatus()

        let second = try lan.guessnum(on: 0, receive, environment: rita)
        defer { second.signal(SIGKILL) }
        #expect(await sender.line(containing: "Connected to rita again.", within: .seconds(60)) != nil, "sender: \(sender.text)")
        let goingOn = try #require(await sender.line(containing: "Going on from "), "sender: \(sender.text)")
        #expect(await second.line(containing: "kept from before, its chunks' SHA-256 checked") != nil, "receiver: \(second.text)")
        let again = goingOn.components(separatedBy: "; ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(again <= size / 100 + (1 << 20), "sent again after the receiver's restart: \(again) bytes; \(goingOn)")
        #expect(!goingOn.contains("Going on from 0 B"), "\(goingOn)")

        #expect(await awaitPercent(70, of: sender), "sender: \(sender.text)")
        sender.signal(SIGKILL)
        _ = await sender.exitStatus()
        let held = percent(of: second)
        let rerun = try lan.guessnum(on: 1, send, environment: sam)
        defer { rerun.signal(SIGKILL) }
        #expect(await rerun.exitStatus(within: .seconds(90)) == 0, "sender run again: \(rerun.text)")
        let resumed = try #require(rerun.text.split(separator: "\n").first { $0.contains("Going on from ") }, "sender run again: \(rerun.text)")
        #expect(resumed.contains("what rita already has."), "nothing sent again that the receiver had: \(resumed)")
        let startedAt = percents(of: rerun).first ?? 0
        #expect(startedAt >= held, "the run again started at \(startedAt) %, the receiver held \(held) %")
        #expect(rerun.text.contains("rita saved “lecture.mp4” (67.1 MB), its SHA-256 checked."), "sender run again: \(rerun.text)")
        #expect(await second.exitStatus(within: .seconds(30)) == 0, "receiver: \(second.text)")
        #expect(second.text.contains("Saved “lecture.mp4” from sam as \(folder.path)/lecture.mp4, its SHA-256 checked."), "receiver: \(second.text)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("lecture.mp4")) == Data(contentsOf: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lecture.mp4"], "no partial file is left")
        try await restoreSendersLink()
    }

    @Test("A folder with kill -9 of the receiver at half the set, then of the sender at 70 % and `guessnum send` run again: files saved before are not sent again, files under way go on from their kept chunks, the empty folder is made, and the tree arrives identical")
    func folderRestartsOfEitherProgram() async throws {
        let outbox = Scratch.path("drop-restart-outbox")
        let album = outbox.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album.appendingPathComponent("raw"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: album.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try writeRandomFiles(8, of: 4 << 20) { index in album.appendingPathComponent("raw/\(index).raw") }
        let folder = try inbox()
        try await slowSendersLink()  // about 7 s for the set
        let drop = try await startDrop(of: album, into: folder, port: 47305, once: false)
        let (first, sender, receive, send, rita, sam) = (drop.receiver, drop.sender, drop.receive, drop.send, drop.rita, drop.sam)
        defer { first.signal(SIGKILL) }
        defer { sender.signal(SIGKILL) }
        #expect(await awaitPercent(50, of: sender), "sender: \(sender.text)")
        first.signal(SIGKILL)
        _ = await first.exitStatus()

        let second = try lan.guessnum(on: 0, receive + ["--once"], environment: rita)
        defer { second.signal(SIGKILL) }
        #expect(await sender.line(containing: "Connected to rita again.", within: .seconds(60)) != nil, "sender: \(sender.text)")
        #expect(await second.line(containing: "Receiving a folder: 8 files, 33.6 MB from sam") != nil, "the set offered again: \(second.text)")
        #expect(await awaitPercent(70, of: sender), "sender: \(sender.text)")
        // And a file saved (put in place under its name), so that one is there before.
        let raw = folder.appendingPathComponent("album/raw")
        let deadline = ContinuousClock.now + .seconds(60)
        while ((try? FileManager.default.contentsOfDirectory(atPath: raw.path)) ?? []).allSatisfy({ $0.hasPrefix(".") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        sender.signal(SIGKILL)
        _ = await sender.exitStatus()
        #expect(!sender.text.contains("declined"), "the files under way went on after the receiver's restart: \(sender.text)")

        let rerun = try lan.guessnum(on: 1, send, environment: sam)
        defer { rerun.signal(SIGKILL) }
        #expect(await rerun.exitStatus(within: .seconds(90)) == 0, "sender run again: \(rerun.text)")
        #expect(rerun.text.contains("rita saved all 8 files (33.6 MB), each one's SHA-256 checked."), "sender run again: \(rerun.text)")
        #expect(rerun.text.contains("saved there before and unchanged: not sent again."), "sender run again: \(rerun.text)")
        #expect(await second.exitStatus(within: .seconds(30)) == 0, "--once, the new set whole: \(second.text)")
        #expect(second.text.contains("sam came back with another set"), "receiver: \(second.text)")
        #expect(second.text.contains("Saved all 8 files (33.6 MB) from sam in \(folder.path)"), "receiver: \(second.text)")
        for index in 1...8 {
            let path = "raw/\(index).raw"
            #expect(try Data(contentsOf: folder.appendingPathComponent("album/" + path)) == Data(contentsOf: album.appendingPathComponent(path)), "\(path)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("album/raw").path).sorted() == (1...8).map { "\($0).raw" }.sorted(), "no partial file or second copy is left")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("album/empty").path, isDirectory: &isDirectory) && isDirectory.boolValue, "the empty folder is made")
        try await restoreSendersLink()
    }
}
