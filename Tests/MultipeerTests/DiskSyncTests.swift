import Foundation
import Synchronization
import Testing

@testable import MultipeerPOSIX

/// The group commit that puts received files in place durably: one descriptor is `fsync`ed;
/// several on one file system are covered by one `syncfs` of the one opened first; a failed
/// `syncfs` falls back to an `fsync` each; a round syncs the bytes, links, then syncs the
/// folders, with the next group's bytes when one waits; and what asks while a round runs waits
/// for the next.
@Suite("Drop: received files synced to disk in groups", .timeLimit(.minutes(1)))
struct DiskSyncTests {
    /// The calls a round made, in order.
    final class Calls: Sendable {
        let made = Mutex<[String]>([])
        func add(_ call: String) { made.withLock { $0.append(call) } }
        var all: [String] { made.withLock { $0 } }
    }

    /// A syncer that records its calls: descriptors 1–9 on file system 1, 10 and up on 2; the
    /// `syncfs` and `fsync` of the descriptors in `failing` fail with EIO.
    static func syncer(_ calls: Calls, failing: Set<Int32> = []) -> DiskSync.Syncer {
        DiskSync.Syncer(
            fsync: { descriptor in
                calls.add("fsync \(descriptor)")
                return failing.contains(descriptor) ? EIO : 0
            },
            syncfs: { descriptor in
                calls.add("syncfs \(descriptor)")
                return failing.contains(descriptor) ? EIO : 0
            },
            device: { descriptor in descriptor < 10 ? 1 : 2 })
    }

    static func descriptors(_ pairs: [(Int32, UInt64)]) -> [DiskSync.Descriptor] {
        pairs.map { DiskSync.Descriptor(descriptor: $0.0, opened: $0.1) }
    }

    @Test("one descriptor alone is fsynced")
    func one() {
        let calls = Calls()
        #expect(DiskSync.sync(Self.descriptors([(3, 1)]), syncer: Self.syncer(calls)) == [0])
        #expect(calls.all == ["fsync 3"])
    }

    @Test("several on one file system: one syncfs, on the descriptor opened first")
    func several() {
        let calls = Calls()
        #expect(DiskSync.sync(Self.descriptors([(3, 7), (4, 2), (5, 9)]), syncer: Self.syncer(calls)) == [0, 0, 0])
        #expect(calls.all == ["syncfs 4"])
    }

    @Test("a syncfs that fails: each is fsynced and gets its own verdict")
    func failing() {
        let calls = Calls()
        let verdicts = DiskSync.sync(Self.descriptors([(3, 1), (4, 2)]), syncer: Self.syncer(calls, failing: [3]))
        #expect(verdicts == [EIO, 0])
        #expect(calls.all == ["syncfs 3", "fsync 3", "fsync 4"])
    }

    @Test("two file systems: a syncfs each; one descriptor alone on its file system is fsynced")
    func devices() {
        let calls = Calls()
        #expect(DiskSync.sync(Self.descriptors([(3, 1), (10, 2), (4, 3), (11, 4), (12, 5)]), syncer: Self.syncer(calls)) == [0, 0, 0, 0, 0])
        #expect(Set(calls.all) == ["syncfs 3", "syncfs 10"])
        let alone = Calls()
        #expect(DiskSync.sync(Self.descriptors([(3, 1), (4, 2), (10, 3)]), syncer: Self.syncer(alone)) == [0, 0, 0])
        #expect(Set(alone.all) == ["syncfs 3", "fsync 10"])
    }

    /// A placement of file `file` in folder `folder` (opened in that order, numbered as the
    /// descriptors) whose link is recorded in `calls` and succeeds unless `linking` is false.
    static func placement(_ file: Int32, in folder: Int32, calls: Calls, linking: Bool = true, done: @escaping @Sendable (Int32) -> Void = { _ in }) -> DiskSync.Placement {
        DiskSync.Placement(
            file: .init(descriptor: file, opened: UInt64(file)), folder: .init(descriptor: folder, opened: UInt64(folder)),
            link: {
                calls.add("link \(file)")
                return linking
            }, done: done)
    }

    @Test("a round: the bytes synced, then each file linked, then the folders synced")
    func round() {
        let calls = Calls()
        let placements = [Self.placement(3, in: 1, calls: calls), Self.placement(4, in: 2, calls: calls)]
        #expect(DiskSync.round(placements, syncer: Self.syncer(calls)) == [0, 0])
        #expect(calls.all == ["syncfs 3", "link 3", "link 4", "syncfs 1"])
    }

    @Test("a file whose bytes could not be synced is never linked; one that could not be linked leaves its folder alone")
    func roundFailures() {
        let calls = Calls()
        let placements = [Self.placement(3, in: 1, calls: calls), Self.placement(4, in: 2, calls: calls), Self.placement(5, in: 6, calls: calls, linking: false)]
        let verdicts = DiskSync.round(placements, syncer: Self.syncer(calls, failing: [3]))
        #expect(verdicts == [EIO, 0, 0])
        #expect(calls.all == ["syncfs 3", "fsync 3", "fsync 4", "fsync 5", "link 4", "link 5", "fsync 2"])
    }

    @Test("what asks while a round runs is placed together in the next")
    func grouped() async {
        let calls = Calls()
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocking = DiskSync.Syncer(
            fsync: { descriptor in
                calls.add("fsync \(descriptor)")
                if descriptor == 11 {  // the first round holds until the others asked
                    entered.signal()
                    gate.wait()
                }
                return 0
            },
            syncfs: { descriptor in
                calls.add("syncfs \(descriptor)")
                return 0
            },
            device: { _ in 1 })
        let disk = DiskSync(syncer: blocking)
        let verdicts = Mutex<[Int32: Int32]>([:])
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let left = Mutex(4)
            let done: @Sendable (Int32, Int32) -> Void = { file, verdict in
                verdicts.withLock { $0[file] = verdict }
                if left.withLock({ count in
                    count -= 1
                    return count
                }) == 0 { finished.resume() }
            }
            disk.place(Self.placement(11, in: 1, calls: calls) { done(11, $0) })
            DispatchQueue.global().async {
                entered.wait()  // the round of file 11 is under way: the others ask meanwhile
                for file: Int32 in [12, 13, 14] { disk.place(Self.placement(file, in: 2, calls: calls) { done(file, $0) }) }
                gate.signal()
            }
        }
        #expect(verdicts.withLock { $0 } == [11: 0, 12: 0, 13: 0, 14: 0])
        // File 11's folder is synced by the same syncfs as the bytes of 12–14 (one flush, not two).
        #expect(calls.all == ["fsync 11", "link 11", "syncfs 1", "link 12", "link 13", "link 14", "syncfs 2"])
    }

    /// Runs ``DiskSync/run(syncer:next:)`` on `groups`, one a round, recording each verdict in
    /// `calls` as it is given.
    static func run(_ groups: [[DiskSync.Placement]], syncer: DiskSync.Syncer) {
        var left = groups
        DiskSync.run(syncer: syncer) { _ in left.isEmpty ? [] : left.removeFirst() }
    }

    @Test("groups that follow each other: one sync for a group's folders and the next one's bytes; a file is answered only after its folder's sync")
    func overlapping() {
        let calls = Calls()
        let done: @Sendable (Int32) -> @Sendable (Int32) -> Void = { file in { verdict in calls.add("done \(file): \(verdict)") } }
        Self.run(
            [[Self.placement(3, in: 1, calls: calls, done: done(3))], [Self.placement(4, in: 2, calls: calls, done: done(4)), Self.placement(5, in: 2, calls: calls, done: done(5))]],
            syncer: Self.syncer(calls))
        #expect(calls.all == ["fsync 3", "link 3", "syncfs 1", "done 3: 0", "link 4", "link 5", "syncfs 2", "done 4: 0", "done 5: 0"])
    }

    @Test("a shared sync that fails: each descriptor is fsynced, and a linked file whose folder could not be synced is answered with the error")
    func overlappingFailure() {
        let calls = Calls()
        let done: @Sendable (Int32) -> @Sendable (Int32) -> Void = { file in { verdict in calls.add("done \(file): \(verdict)") } }
        Self.run(
            [[Self.placement(3, in: 1, calls: calls, done: done(3))], [Self.placement(4, in: 2, calls: calls, done: done(4))]],
            syncer: Self.syncer(calls, failing: [1]))
        #expect(calls.all == ["fsync 3", "link 3", "syncfs 1", "fsync 1", "fsync 4", "done 3: \(EIO)", "link 4", "fsync 2", "done 4: 0"])
    }

    @Test("a real file is synced, linked and its folder synced")
    func real() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("disksync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (folder, folderOpened) = DiskSync.open { open(directory.path, O_RDONLY | O_DIRECTORY) }
        let (file, fileOpened) = DiskSync.open { openat(folder, ".a.part", O_RDWR | O_CREAT | O_EXCL, 0o600) }
        defer {
            close(file)
            close(folder)
        }
        #expect(file >= 0 && folder >= 0 && folderOpened < fileOpened)
        let verdict = await DiskSync().place(.init(descriptor: file, opened: fileOpened), folder: .init(descriptor: folder, opened: folderOpened)) {
            linkat(folder, ".a.part", folder, "a", 0) == 0
        }
        #expect(verdict == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("a").path))
    }
}
