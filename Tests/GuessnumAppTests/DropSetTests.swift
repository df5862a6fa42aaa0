import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

/// Several files and folders in one offer (`guessnum send A B DIR…`): the walk that lists them
/// (streamed, nothing followed, every name checked by the single-file rule), the question's
/// words, the bounds of what an accepted set may bring, and sender and drop box end to end over
/// the in-memory network, hostile names and a receiver's planted link included.
@Suite("Sets of files and folders in the file drop", .timeLimit(.minutes(2)))
struct DropSetTests {
    final class Lines: DropOutput {
        let lines = Mutex<[String]>([])
        func line(_ text: String) { lines.withLock { $0.append(text) } }
        func progress(of name: String, _ text: String, fraction: Double) {}
        var all: [String] { lines.withLock { $0 } }
    }

    /// Writes `files` (path → contents) under a fresh directory; returns it.
    static func tree(_ files: [String: String], prefix: String = "drop-outbox") throws -> URL {
        let root = try ResourceScenarios.emptyDirectory(prefix)
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root
    }

    /// Every regular file under `root`, by its path under it, with its contents; and every
    /// symbolic link, by path (there should be none in what was received).
    static func contents(of root: URL) throws -> (files: [String: String], links: [String]) {
        var files: [String: String] = [:]
        var links: [String] = []
        let walk = try #require(FileManager.default.enumerator(atPath: root.path))
        while let path = walk.nextObject() as? String {
            let url = root.appendingPathComponent(path)
            let kind = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            if kind == .typeSymbolicLink { links.append(path) }
            if kind == .typeRegular { files[path] = String(decoding: try Data(contentsOf: url), as: UTF8.self) }
        }
        return (files, links)
    }

    static func walk(_ items: [URL]) -> [DropWalkEntry] {
        let walk = DropWalk(items)
        var entries: [DropWalkEntry] = []
        while let entry = walk.next() { entries.append(entry) }
        return entries
    }

    // MARK: The walk

    @Test("The walk takes folders whole under their own name, and leaves out with a reason what is not sent: links (never followed, nor gone into), hidden names, a FIFO; a link named on the command line is followed")
    func walkLeavesOut() throws {
        let root = try Self.tree(["photos/2024/beach.jpg": "sand", "photos/top.txt": "top", "photos/.secret": "no", "notes.txt": "n"])
        let elsewhere = try Self.tree(["stolen.txt": "must not go"], prefix: "drop-elsewhere")
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("link.txt").path, withDestinationPath: "/etc/hostname")
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("away").path, withDestinationPath: elsewhere.path)
        #expect(mkfifo(photos.appendingPathComponent("pipe").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("named-link.txt").path, withDestinationPath: root.appendingPathComponent("notes.txt").path)

        let entries = Self.walk([photos, root.appendingPathComponent("named-link.txt")])
        var sent: [String: Int64] = [:]
        var leftOut: [String: String] = [:]
        for entry in entries {
            switch entry {
            case .file(_, let path, let size): sent[path] = size
            case .leftOut(let path, let reason): leftOut[path] = reason
            case .emptyFolder(let path): Issue.record("no folder here is empty: \(path)")
            }
        }
        #expect(sent == ["photos/2024/beach.jpg": 4, "photos/top.txt": 3, "named-link.txt": 1], "\(entries)")
        #expect(entries.contains(.file(url: root.appendingPathComponent("notes.txt").resolvingSymlinksInPath(), path: "named-link.txt", size: 1)), "\(entries)")
        #expect(leftOut == [
            "photos/.secret": "its name starts with a dot",
            "photos/link.txt": "it is a symbolic link, which is not followed",
            "photos/away": "it is a symbolic link, which is not followed",
            "photos/pipe": "it is not a regular file or a folder",
        ], "\(entries)")
    }

    @Test("Hostile names are never sent as paths: '/' and '.x' named on the command line are left out by the single-file rule, 'dir/..' goes under the folder's own name; names that differ only by case or by Unicode normalization are two files, listed as such")
    func walkHostileNames() throws {
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        let root = try Self.tree([nfc: "composed", "Notes.txt": "upper", "notes.txt": "lower"])
        try Data("decomposed".utf8).write(to: root.appendingPathComponent(nfd))
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".hidden-dir"), withIntermediateDirectories: true)
        let entries = Self.walk([URL(fileURLWithPath: "/"), root.appendingPathComponent(".hidden-dir")])
        #expect(entries == [
            .leftOut(path: "/", reason: "its name is a path (it contains a slash)"), .leftOut(path: ".hidden-dir", reason: "its name starts with a dot"),
        ])
        // "dir/sub/.." is the folder it names, under that folder's own name: never "..".
        let sub = root.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        #expect(DropWalk.name(of: sub.appendingPathComponent("..")) == root.lastPathComponent)

        let named = Self.walk([root]).compactMap { entry -> [UInt8]? in
            if case .file(_, let path, _) = entry { return Array(path.utf8) }
            return nil
        }
        let base = Array(root.lastPathComponent.utf8) + Array("/".utf8)
        // Compared as bytes: Swift's String equality would take the two café names for one.
        #expect(Set(named) == Set([nfc, nfd, "Notes.txt", "notes.txt"].map { base + Array($0.utf8) }), "\(named.map { String(decoding: $0, as: UTF8.self) })")
        #expect(named.count == 4)
    }

    @Test("The count says what the set holds, and the question's words follow the single file's: '2 files and a folder: 414 files, 2.3 GB', '3 files (1.2 MB)'")
    func countAndSummary() throws {
        let root = try Self.tree(["a.txt": "aa", "b.txt": "bbb", "photos/1.jpg": "1", "photos/in/2.jpg": "22", "photos/.x": "hidden"])
        let count = DropSetCount.count(["a.txt", "b.txt", "photos"].map { root.appendingPathComponent($0) })
        #expect(count.files == 4 && count.bytes == 8 && count.looseFiles == 2 && count.folders == 1 && count.leftOut == 1, "\(count)")
        #expect(count.offer(set: UUID()).summary == "2 files and a folder: 4 files, 8 B")
        let set = UUID()
        #expect(DropSetOffer(set: set, files: 414, bytes: 2_300_000_000, folders: 1, looseFiles: 2).summary == "2 files and a folder: 414 files, 2.3 GB")
        #expect(DropSetOffer(set: set, files: 3, bytes: 1_200_000, folders: 0, looseFiles: 3).summary == "3 files (1.2 MB)")
        #expect(DropSetOffer(set: set, files: 1, bytes: 5, folders: 1, looseFiles: 0).summary == "a folder: 1 file, 5 B")
        #expect(DropSetOffer(set: set, files: 7, bytes: 5, folders: 2, looseFiles: 1).summary == "a file and 2 folders: 7 files, 5 B")
        #expect(!DropSetOffer(set: set, files: 0, bytes: 0, folders: 1, looseFiles: 0).isValid)
        #expect(!DropSetOffer(set: set, files: 1, bytes: -1, folders: 1, looseFiles: 0).isValid)
    }

    @Test("An accepted set takes no more files or bytes than it offered, nor more than 16 files at once; each refusal is a sentence")
    func receiptBounds() throws {
        var receipt = DropSetReceipt(offer: DropSetOffer(set: UUID(), files: 20, bytes: 100, folders: 1, looseFiles: 0), peer: peer("sam"))
        #expect(receipt.admit(size: 60) == nil)
        #expect(receipt.admit(size: 41) == "the set was offered with 100 B, and this file goes past them")
        #expect(receipt.admit(size: 40) == nil)
        var full = DropSetReceipt(offer: DropSetOffer(set: UUID(), files: 2, bytes: 100, folders: 1, looseFiles: 0), peer: peer("sam"))
        #expect(full.admit(size: 1) == nil && full.admit(size: 1) == nil)
        #expect(full.admit(size: 1) == "the set was offered with 2 files, and this one is past them")
        #expect(!receipt.isComplete && receipt.missing == 20)
    }

    // MARK: End to end, in memory

    /// A drop box for rita in `inbox` asking `person` (or taking all with `acceptAll`), and a
    /// sender sam; runs `body` with the sender and the box's address.
    func withBox(
        inbox: URL, acceptAll: Bool = false, boxFeatures: UInt32 = WireProtocol.features, ask: @escaping @Sendable (String) async -> Bool = { _ in true },
        _ body: (DropSender, Endpoint, Lines, Lines) async throws -> Void
    ) async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            var configuration = SessionConfiguration.notAboutTimeouts
            configuration.features = boxFeatures
            let rita = scope.session(localPeer: peer("rita"), transport: network, configuration: configuration)
            let boxOutput = Lines()
            let box = DropBox(
                session: rita, discovery: network.discovery, directory: inbox, acceptAll: acceptAll, once: false, output: boxOutput,
                command: "guessnum", limits: DropQueue.Limits(), ask: ask)
            let running = Task { try await box.run(port: 0) }
            defer {
                box.stop()
                running.cancel()
            }
            #expect(await eventually { rita.listeningPort != nil })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: try #require(rita.listeningPort))
            let senderOutput = Lines()
            let sam = scope.session(localPeer: peer("sam"), transport: network)
            let sender = DropSender(session: sam, discovery: network.discovery, output: senderOutput, timeout: .seconds(30), pick: { nil })
            try await body(sender, endpoint, senderOutput, boxOutput)
        }
    }

    @Test("Two files and a folder with nested folders: one question for the set, the structure kept under the receiver's directory, every file saved and checked; links and hidden names stay behind and no link is made")
    func setEndToEnd() async throws {
        let outbox = try Self.tree([
            "a.txt": "alpha", "b.txt": "bravo", "photos/2024/summer/beach.jpg": String(repeating: "sand", count: 50_000),
            "photos/2024/top.txt": "top", "photos/notes/n.md": "# n", "photos/.DS_Store": "junk",
        ])
        try FileManager.default.createSymbolicLink(atPath: outbox.appendingPathComponent("photos/passwd").path, withDestinationPath: "/etc/passwd")
        let inbox = try ResourceScenarios.emptyDirectory()
        let questions = Mutex<[String]>([])
        try await withBox(inbox: inbox, ask: { question in
            questions.withLock { $0.append(question) }
            return true
        }) { sender, endpoint, said, box in
            let code = await sender.run(set: ["a.txt", "b.txt", "photos"].map { outbox.appendingPathComponent($0) }, to: .address(endpoint))
            #expect(code == 0, "\(said.all)")
            #expect(questions.withLock { $0 } == ["sam offers 2 files and a folder: 5 files, 200.0 kB. Save them in \(inbox.path)? [y/N]"])
            #expect(said.all.contains("“photos/passwd” is left out: it is a symbolic link, which is not followed."), "\(said.all)")
            #expect(said.all.contains("“photos/.DS_Store” is left out: its name starts with a dot."), "\(said.all)")
            #expect(said.all.contains("rita saved all 5 files (200.0 kB), each one's SHA-256 checked."), "\(said.all)")
            #expect(await eventually { box.all.contains("Saved all 5 files (200.0 kB) from sam in \(inbox.path), each one's SHA-256 checked.") }, "\(box.all)")
        }
        let received = try Self.contents(of: inbox)
        #expect(received.links.isEmpty)
        #expect(received.files == [
            "a.txt": "alpha", "b.txt": "bravo", "photos/2024/summer/beach.jpg": String(repeating: "sand", count: 50_000),
            "photos/2024/top.txt": "top", "photos/notes/n.md": "# n",
        ])
        let mode = try FileManager.default.attributesOfItem(atPath: inbox.appendingPathComponent("photos/2024").path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("A receiver whose directory holds a link named like the sent folder: nothing is written through it, each file under it fails in one sentence, and the other files are kept")
    func plantedLinkOnTheReceiver() async throws {
        let outbox = try Self.tree(["a.txt": "alpha", "photos/1.jpg": "one", "photos/deep/2.jpg": "two"])
        let inbox = try ResourceScenarios.emptyDirectory()
        let elsewhere = try ResourceScenarios.emptyDirectory("drop-elsewhere")
        try FileManager.default.createSymbolicLink(atPath: inbox.appendingPathComponent("photos").path, withDestinationPath: elsewhere.path)
        try await withBox(inbox: inbox, acceptAll: true) { sender, endpoint, said, box in
            let code = await sender.run(set: ["a.txt", "photos"].map { outbox.appendingPathComponent($0) }, to: .address(endpoint))
            #expect(code == AppFailure.Code.runtime.exitCode, "\(said.all)")
            let refusal = "“photos” in \(inbox.path) is a symbolic link or a file, not a folder (links are not followed)"
            #expect(said.all.contains("rita declined “photos/1.jpg”: \(refusal)."), "\(said.all)")
            #expect(said.all.contains { $0.hasPrefix("rita declined “photos/deep/2.jpg”") }, "\(said.all)")
            #expect(said.all.contains("rita saved 1 of the 3 files (5 B), each one's SHA-256 checked; 2 were not saved (said above)."), "\(said.all)")
            #expect(await eventually { box.all.contains { $0.hasPrefix("Saved 1 of the 3 files (5 B) from sam") } }, "\(box.all)")
        }
        #expect(ResourceScenarios.names(in: elsewhere).isEmpty, "written through the link: \(ResourceScenarios.names(in: elsewhere))")
        #expect(try String(contentsOf: inbox.appendingPathComponent("a.txt"), encoding: .utf8) == "alpha")
        #expect(ResourceScenarios.names(in: inbox) == ["a.txt", "photos"])
    }

    @Test("A receiver of an earlier release (no folders bit): the sender says it takes one file at a time and exits 3, the receiver is asked nothing; a single file still goes to it as before")
    func earlierReceiver() async throws {
        let outbox = try Self.tree(["a.txt": "alpha", "photos/1.jpg": "one"])
        let inbox = try ResourceScenarios.emptyDirectory()
        let asked = Mutex(0)
        let earlier = WireProtocol.Feature.streams | WireProtocol.Feature.resources | WireProtocol.Feature.resume
        try await withBox(inbox: inbox, boxFeatures: earlier, ask: { _ in
            asked.withLock { $0 += 1 }
            return true
        }) { sender, endpoint, said, _ in
            let code = await sender.run(set: ["a.txt", "photos"].map { outbox.appendingPathComponent($0) }, to: .address(endpoint))
            #expect(code == 3, "\(said.all)")
            #expect(said.all.contains(DropSender.earlierReceiver("rita")), "\(said.all)")
            #expect(asked.withLock { $0 } == 0)
            #expect(ResourceScenarios.names(in: inbox).isEmpty)
            let single = await sender.run(file: outbox.appendingPathComponent("a.txt"), named: nil, to: .address(endpoint))
            #expect(single == 0, "\(said.all)")
        }
        #expect(try String(contentsOf: inbox.appendingPathComponent("a.txt"), encoding: .utf8) == "alpha")
    }

    @Test("A sender that offers its set twice (a reconnection brings the offer again) is asked about once and answered again; past the files it offered, a file is declined with the reason; the set's end closes it with the count")
    func duplicateOfferAndExtraFile() async throws {
        let inbox = try ResourceScenarios.emptyDirectory()
        let questions = Mutex(0)
        try await withBox(inbox: inbox, ask: { _ in
            questions.withLock { $0 += 1 }
            return true
        }) { sender, endpoint, _, box in
            let session = sender.session
            guard case .connected(let rita)? = try? await session.invite(endpoint) else {
                Issue.record("not connected")
                return
            }
            let answers = EventLog(session.events, .dataReceived)
            let offer = DropSetOffer(set: UUID(), files: 1, bytes: 1, folders: 1, looseFiles: 0)
            try session.send(offer, to: [rita])
            try session.send(offer, to: [rita])
            #expect(await eventually { answers.all.count { (try? $0.decode(DropSetAnswer.self))?.accepted == true } >= 1 })
            try session.send(offer, to: [rita])  // under way now: answered again (the second may have been too)
            #expect(await eventually { answers.all.count { (try? $0.decode(DropSetAnswer.self))?.accepted == true } >= 2 })
            #expect(questions.withLock { $0 } == 1)

            let first = try session.sendResource(at: try ResourceScenarios.file(named: "1.txt", Data("1".utf8)), path: "a/1.txt", to: rita)
            try await first.outcome()
            let extra = try session.sendResource(at: try ResourceScenarios.file(named: "2.txt", Data("2".utf8)), path: "a/2.txt", to: rita)
            do throws(MultipeerError) {
                try await extra.outcome()
                Issue.record("a file past the set's offer was saved")
            } catch {
                #expect(error.message == "rita declined “a/2.txt”: the set was offered with 1 file, and this one is past them.")
            }
            try session.send(DropSetEnd(set: offer.set, notOffered: 0), to: [rita])
            #expect(await eventually { box.all.contains("Saved the file (1 B) from sam in \(inbox.path), each one's SHA-256 checked.") }, "\(box.all)")
        }
        #expect(ResourceScenarios.names(in: inbox.appendingPathComponent("a")) == ["1.txt"])
    }

    @Test("The drop box turns away a file whose name is a path when no set of its sender was accepted")
    func pathWithoutSet() async throws {
        let inbox = try ResourceScenarios.emptyDirectory()
        let source = try ResourceScenarios.file(named: "x.txt", Data("x".utf8))
        try await withBox(inbox: inbox, acceptAll: true) { sender, endpoint, _, _ in
            let session = sender.session
            guard case .connected(let rita)? = try? await session.invite(endpoint) else {
                Issue.record("not connected")
                return
            }
            let offered = try session.sendResource(at: source, path: "sneaky/x.txt", to: rita)
            do throws(MultipeerError) {
                try await offered.outcome()
                Issue.record("a path outside any set was saved")
            } catch {
                #expect(error.message == "rita declined “sneaky/x.txt”: it belongs to no set of files that was accepted.")
            }
        }
        #expect(ResourceScenarios.names(in: inbox).isEmpty)
    }

    @Test("The walk says each folder with nothing to send in it, once read to its end: empty, nested empty, holding only what is left out; not a folder that holds a file or a folder")
    func walkEmptyFolders() throws {
        let root = try Self.tree(["album/a.jpg": "a", "album/only-hidden/.x": "x"])
        let album = root.appendingPathComponent("album")
        for path in ["empty", "deep/deeper", "only-link"] {
            try FileManager.default.createDirectory(at: album.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent("only-link/l").path, withDestinationPath: "/etc")
        let entries = Self.walk([album])
        let empty = entries.compactMap { entry -> String? in
            if case .emptyFolder(let path) = entry { return path }
            return nil
        }
        #expect(Set(empty) == ["album/empty", "album/deep/deeper", "album/only-hidden", "album/only-link"], "\(entries)")
        #expect(DropSetCount.count([album]).emptyFolders == 4)
        #expect(DropSetCount.count([album]).offer(set: UUID()).emptyFolders == 4)
    }

    @Test("Empty folders of a set are made on the receiver's side (0700) under their paths; a path that breaks the rule, one through a planted link, or more than the offer counted, is not made")
    func emptyFoldersEndToEnd() async throws {
        let outbox = try Self.tree(["album/a.jpg": "a"])
        for path in ["album/empty", "album/deep/deeper"] {
            try FileManager.default.createDirectory(at: outbox.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        let inbox = try ResourceScenarios.emptyDirectory()
        let elsewhere = try ResourceScenarios.emptyDirectory("drop-elsewhere")
        try FileManager.default.createSymbolicLink(atPath: inbox.appendingPathComponent("trap").path, withDestinationPath: elsewhere.path)
        try await withBox(inbox: inbox, acceptAll: true) { sender, endpoint, said, _ in
            let code = await sender.run(set: [outbox.appendingPathComponent("album")], to: .address(endpoint))
            #expect(code == 0, "\(said.all)")

            let session = sender.session
            var connected = session.connectedPeers.first
            if connected == nil, case .connected(let peer)? = try? await session.invite(endpoint) { connected = peer }
            guard let rita = connected else {
                Issue.record("not connected")
                return
            }
            let answers = EventLog(session.events, .dataReceived)
            let offer = DropSetOffer(set: UUID(), files: 1, bytes: 1, folders: 1, looseFiles: 0, emptyFolders: 4)
            try session.send(offer, to: [rita])
            #expect(await eventually { answers.all.contains { (try? $0.decode(DropSetAnswer.self))?.accepted == true } })
            try session.send(DropSetFolders(set: offer.set, paths: ["../escape", "trap/inside", "x/./y", "ok/one", "ok/two", "ok/three"]), to: [rita])
            try session.send(DropSetEnd(set: offer.set, notOffered: 1), to: [rita])
            #expect(await eventually { FileManager.default.fileExists(atPath: inbox.appendingPathComponent("ok/one").path) })
        }
        var isDirectory: ObjCBool = false
        for path in ["album/empty", "album/deep/deeper"] {
            #expect(FileManager.default.fileExists(atPath: inbox.appendingPathComponent(path).path, isDirectory: &isDirectory) && isDirectory.boolValue, "\(path)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: inbox.appendingPathComponent("album/empty").path)[.posixPermissions] as? Int == 0o700)
        #expect(ResourceScenarios.names(in: elsewhere).isEmpty, "made through the link")
        #expect(!FileManager.default.fileExists(atPath: inbox.deletingLastPathComponent().appendingPathComponent("escape").path))
        #expect(ResourceScenarios.names(in: inbox.appendingPathComponent("ok")) == ["one"], "no more than the offer counted (4, the refused ones counted too)")
        #expect(!FileManager.default.fileExists(atPath: inbox.appendingPathComponent("x").path))
    }
}
