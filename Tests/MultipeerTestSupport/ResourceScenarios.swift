import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Multipeer
import Testing

/// What the resource tests check, over whichever transport connected `host` (the receiver)
/// and `guest` (the sender): the in-memory network and TCP with TLS run the same scenarios.
/// Every wait ends on its event; the bounds only catch a hang.
public struct ResourceScenarios: Sendable {
    public let host: Session
    public let guest: Session
    public let offers: EventLog<ResourceOffer>
    public let started: EventLog<IncomingResource>
    public let finished: EventLog<ResourceCompletion>

    /// Scenarios for two sessions that are about to connect (make it before inviting, so no
    /// post is missed).
    public init(host: Session, guest: Session) {
        self.host = host
        self.guest = guest
        offers = EventLog(host.events, .resourceOffered)
        started = EventLog(host.events, .resourceStarted)
        finished = EventLog(host.events, .resourceFinished)
    }

    /// A new file named `name` holding `bytes`, in a directory of its own (the sender's).
    public static func file(named name: String, _ bytes: Data) throws -> URL {
        let directory = try emptyDirectory("outbox")
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// `count` bytes for a large file, made fast (test code runs on the cooperative pool): a
    /// block of 1,000,003 bytes of ``StreamScenarios/pattern(_:seed:)``, repeated. Its odd
    /// period means bytes resumed from a wrong offset differ.
    public static func bulk(_ count: Int, seed: UInt8) -> Data {
        let block = StreamScenarios.pattern(min(count, 1_000_003), seed: seed)
        var bytes = Data(capacity: count)
        while bytes.count < count { bytes.append(block.prefix(count - bytes.count)) }
        return bytes
    }

    /// A new empty directory (a receiver's).
    public static func emptyDirectory(_ prefix: String = "inbox") throws -> URL {
        let url = Scratch.path(prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every name in `directory`, hidden ones too, sorted.
    public static func names(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The offer named `name` that the host was posted.
    public func offer(named name: String) async throws -> ResourceOffer {
        guard let offer = await offers.first(where: { $0.name == name }) else { throw TestFailure("no offer of \(name) arrived") }
        return offer
    }

    /// A file goes whole: the offer states its name, size, SHA-256 and sender; the receiver's
    /// file holds the same bytes under the same name (readable by its owner only) and nothing
    /// else is left in the directory; both sides' progress ends at the size; `resourceStarted`
    /// and `resourceFinished` are posted.
    public func sendAndSave() async throws {
        let bytes = StreamScenarios.pattern(3_000_000, seed: 9)
        let source = try Self.file(named: "holiday photos.tar", bytes)
        let inbox = try Self.emptyDirectory()
        let sending = try guest.sendResource(at: source, to: host.localPeer)
        let offer = try await offer(named: "holiday photos.tar")
        #expect(offer.peer == guest.localPeer)
        #expect(offer.size == 3_000_000)
        // The SHA-256 follows the bytes: the sender did not read the whole file before its offer
        // (an earlier peer's offer carries it: DigestAfterBytesTests). It is checked all the same.
        #expect(offer.sha256 == nil)
        let receiving = try await offer.accept(into: inbox)
        #expect(await started.first { $0 === receiving } != nil)
        let saved = try await receiving.outcome()
        try await sending.outcome()
        #expect(saved == inbox.appendingPathComponent("holiday photos.tar"))
        #expect(try Data(contentsOf: saved) == bytes)
        #expect(Self.names(in: inbox) == ["holiday photos.tar"])
        let mode = try FileManager.default.attributesOfItem(atPath: saved.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Saved means let go of: the receiver holds no descriptor of the file any more (the
        // handle is kept for a while after the end, and would keep a removed file on the disk).
        #expect(Self.openDescriptors(to: saved) == 0)
        #expect(receiving.progress == ResourceProgress(completedBytes: 3_000_000, totalBytes: 3_000_000))
        #expect(sending.progress == ResourceProgress(completedBytes: 3_000_000, totalBytes: 3_000_000))
        let completion = await finished.first { $0.name == "holiday photos.tar" }
        #expect((try? completion?.result.get()) == saved)
        // A progress sequence started after the end yields the last progress, then ends.
        var seen: [ResourceProgress] = []
        for await step in sending.progressUpdates { seen.append(step) }
        #expect(seen == [ResourceProgress(completedBytes: 3_000_000, totalBytes: 3_000_000)])
    }

    /// A declined offer ends the sender's transfer with the reason; the receiver keeps nothing.
    /// An empty file goes too.
    public func declinedAndEmpty() async throws {
        let source = try Self.file(named: "unwanted.bin", Data(repeating: 1, count: 1000))
        let inbox = try Self.emptyDirectory()
        let sending = try guest.sendResource(at: source, to: host.localPeer)
        try await offer(named: "unwanted.bin").decline(reason: "no room on this disk")
        do {
            try await sending.outcome()
            Issue.record("a declined resource was sent")
        } catch {
            #expect(error.code == .resourceDeclined)
            #expect(error.message == "alice declined “unwanted.bin”: no room on this disk.", "\(error.message)")
        }
        #expect(Self.names(in: inbox).isEmpty)

        let empty = try Self.file(named: "empty", Data())
        let second = try guest.sendResource(at: empty, named: "nothing.txt", to: host.localPeer)
        let saved = try await offer(named: "nothing.txt").accept(into: inbox).outcome()
        try await second.outcome()
        #expect(try Data(contentsOf: saved).isEmpty)
        #expect(Self.names(in: inbox) == ["nothing.txt"])
    }

    /// A name already taken in the directory is never overwritten: the file is saved as
    /// "notes (2).txt", then "notes (3).txt".
    public func neverOverwrites() async throws {
        let inbox = try Self.emptyDirectory()
        let mine = Data("the receiver's own notes".utf8)
        try mine.write(to: inbox.appendingPathComponent("notes.txt"))
        for (round, expected) in ["notes (2).txt", "notes (3).txt"].enumerated() {
            let bytes = Data("version \(round)".utf8)
            let sending = try guest.sendResource(at: try Self.file(named: "notes.txt", bytes), to: host.localPeer)
            guard await offers.count(atLeast: round + 1, where: { $0.name == "notes.txt" }) > round else { throw TestFailure("no offer") }
            let pending = offers.all.filter { $0.name == "notes.txt" }[round]
            let saved = try await pending.accept(into: inbox).outcome()
            try await sending.outcome()
            #expect(saved.lastPathComponent == expected)
            #expect(try Data(contentsOf: saved) == bytes)
        }
        #expect(try Data(contentsOf: inbox.appendingPathComponent("notes.txt")) == mine)
        #expect(Self.names(in: inbox) == ["notes (2).txt", "notes (3).txt", "notes.txt"])
    }

    /// Either side's cancel mid-transfer ends both sides' transfers with a sentence naming who
    /// cancelled, and leaves no partial file; the link carries on.
    public func cancels() async throws {
        for cancelling in ["sender", "receiver"] {
            let inbox = try Self.emptyDirectory()
            let name = "big-\(cancelling).bin"
            let sending = try guest.sendResource(at: try Self.file(named: name, Self.bulk(8 << 20, seed: 3)), to: host.localPeer)
            let receiving = try await offer(named: name).accept(into: inbox)
            for await step in receiving.progressUpdates where step.completedBytes > 0 { break }
            if cancelling == "sender" { sending.cancel() } else { receiving.cancel() }
            do {
                _ = try await receiving.outcome()
                Issue.record("the receiver saved a resource the \(cancelling) cancelled")
            } catch {
                #expect(error.code == .cancelled, "\(error)")
                #expect(error.message.contains(cancelling == "sender" ? "bob" : "this side"), "\(error.message)")
            }
            do {
                try await sending.outcome()
                Issue.record("the sender finished a resource the \(cancelling) cancelled")
            } catch {
                if cancelling == "sender" {
                    #expect(error.code == .cancelled)
                    #expect(error.message.contains("this side"), "\(error.message)")
                } else {
                    #expect(error.code == .resourceFailed)
                    #expect(error.message == "“\(name)” was not saved: alice cancelled it.", "\(error.message)")
                }
            }
            #expect(Self.names(in: inbox).isEmpty, "left behind: \(Self.names(in: inbox))")
        }
        #expect(host.connectedPeers == [guest.localPeer])
    }

    /// The link drops mid-transfer (`drop`), the guest connects again (`reconnect`), and the
    /// transfer goes on from what the receiver held, not from zero: the sender's progress never
    /// falls below it, and the file arrives whole.
    public func resumesAfterDrop(drop: () async -> Void, reconnect: () async throws -> Void) async throws {
        let size = 8 << 20
        let bytes = Self.bulk(size, seed: 8)
        let inbox = try Self.emptyDirectory()
        let sending = try guest.sendResource(at: try Self.file(named: "movie.mkv", bytes), to: host.localPeer)
        let reports = Locked<[Int64]>([])
        let watching = Task {
            for await step in sending.progressUpdates { reports.withLock { $0.append(step.completedBytes) } }
        }
        let receiving = try await offer(named: "movie.mkv").accept(into: inbox)
        for await step in receiving.progressUpdates where step.completedBytes >= 1 << 20 { break }
        await drop()
        #expect(await eventually { host.connectedPeers.isEmpty && guest.connectedPeers.isEmpty })
        let held = receiving.progress.completedBytes
        #expect(held > 0 && held < Int64(size), "the drop came at \(held) of \(size) bytes")
        let before = reports.value.count
        try await reconnect()
        let saved = try await receiving.outcome()
        try await sending.outcome()
        await watching.value
        #expect(try Data(contentsOf: saved) == bytes)
        #expect(Self.names(in: inbox) == ["movie.mkv"])
        let after = reports.value.dropFirst(before)
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0 >= held }, "the sender went back below the \(held) bytes the receiver held: \(Array(after.prefix(5)))")
    }

    /// How many of this process's open file descriptors refer to the file at `url`: the same
    /// inode, whatever path it was opened under (Linux's `/proc/self/fd`).
    public static func openDescriptors(to url: URL) -> Int {
        var file = stat()
        guard stat(url.path, &file) == 0 else { return 0 }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            var open = stat()
            return stat("/proc/self/fd/\(entry)", &open) == 0 && open.st_ino == file.st_ino && open.st_dev == file.st_dev
        }.count
    }

    /// The SHA-256 of `bytes` in lowercase hex.
    public static func sha256(_ bytes: Data) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
