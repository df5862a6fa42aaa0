import CSyncFS
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Puts received files in place durably, in groups (a group commit): a round syncs the bytes
/// of every file that asked since the round before, links each whose bytes are on the disk into
/// place, then syncs their folders, so that a file is only reported saved once a crash can lose
/// neither it nor its name. One descriptor alone is `fsync`ed; several on one file system are
/// covered by one `syncfs` (one flush of the disk for the group instead of one per file); when
/// that fails, each is `fsync`ed on its own, so each gets its own verdict. Rounds run on a
/// thread of their own, outside Swift's cooperative pool, one after another: what asks while a
/// round runs waits for the next, which takes all that waits.
///
/// Rounds overlap while files keep coming: the sync of one group's folders is the same sync as
/// the next group's bytes (one `syncfs` covers both, the links having been made before it), so
/// a busy disk is flushed once per group instead of twice. A group's files are answered once
/// that sync returns; when no group follows, its folders are synced at once, on their own.
///
/// `syncfs` reports a write-back error of any file of the file system since the descriptor it
/// is given was opened: a round gives it the descriptor opened first (``open(_:)`` numbers
/// them), so that an error of any file of the group, all opened after it, is seen.
///
/// The descriptors passed to ``place(_:folder:link:)`` must stay open until it returns.
final class DiskSync: Sendable {
    /// A descriptor and its number from ``open(_:)``.
    struct Descriptor: Sendable {
        let descriptor: Int32
        let opened: UInt64
    }

    /// A file to put in place: its descriptor, its folder's, how to link it (false when that
    /// failed: its folder is then not synced), and what to call with the verdict (0, or the
    /// `errno` of a sync that failed).
    struct Placement: Sendable {
        let file: Descriptor
        let folder: Descriptor
        let link: @Sendable () -> Bool
        let done: @Sendable (Int32) -> Void
    }

    /// Descriptors opened by ``open(_:)`` so far: each one's number, in the order of the opens.
    private static let opens = Mutex<UInt64>(0)

    /// Opens a descriptor with `open` and numbers it: a descriptor with a lower number was
    /// opened before. -1 and the `errno` when `open` fails.
    static func open(_ open: () -> Int32) -> (descriptor: Int32, opened: UInt64) {
        let (descriptor, opened, error) = opens.withLock { count in
            let descriptor = open()
            let error = errno
            count += 1
            return (descriptor, count, error)
        }
        errno = error
        return (descriptor, opened)
    }

    private struct Pending {
        var requests: [Placement] = []
        /// A round is scheduled or under way on the queue.
        var running = false
    }

    private let queue = DispatchQueue(label: "multipeer.resource.sync")
    private let pending = Mutex(Pending())
    private let syncer: Syncer

    /// The system calls a round makes: the real ones, or a test's.
    struct Syncer: Sendable {
        var fsync: @Sendable (Int32) -> Int32
        var syncfs: @Sendable (Int32) -> Int32
        /// The file system a descriptor is on; nil when it cannot be told.
        var device: @Sendable (Int32) -> UInt64?

        static let system = Syncer(
            fsync: { Glibc.fsync($0) == 0 ? 0 : errno },
            syncfs: { csyncfs_syncfs($0) == 0 ? 0 : errno },
            device: { descriptor in
                var info = stat()
                return fstat(descriptor, &info) == 0 ? UInt64(info.st_dev) : nil
            })
    }

    init(syncer: Syncer = .system) {
        self.syncer = syncer
    }

    /// Syncs the bytes of `file`, links it with `link` (on the sync's thread) unless that failed,
    /// then syncs `folder`; returns 0, or the `errno` of the sync that failed (0 too when `link`
    /// returned false: it says why itself).
    func place(_ file: Descriptor, folder: Descriptor, link: @escaping @Sendable () -> Bool) async -> Int32 {
        await withCheckedContinuation { continuation in
            place(Placement(file: file, folder: folder, link: link) { continuation.resume(returning: $0) })
        }
    }

    /// Asks for `placement` in the next round; its `done` is called on the sync's thread.
    func place(_ placement: Placement) {
        let start = pending.withLock { pending in
            pending.requests.append(placement)
            defer { pending.running = true }
            return !pending.running
        }
        if start { queue.async { self.rounds() } }
    }

    /// Runs rounds until nothing waits.
    private func rounds() {
        Self.run(syncer: syncer) { idle in
            pending.withLock { pending in
                defer { pending.requests = [] }
                if idle, pending.requests.isEmpty { pending.running = false }
                return pending.requests
            }
        }
    }

    /// Runs rounds on what `next` gives (it is told whether nothing awaits its folders' sync:
    /// then, given nothing, the rounds end) until it gives nothing and no file awaits its
    /// folder's sync. Each round makes one sync for the folders of the files linked in the
    /// round before and the bytes of those `next` gave now; answers the first, then links
    /// each of the others whose bytes are on the disk.
    static func run(syncer: Syncer, next: (_ idle: Bool) -> [Placement]) {
        var linked: [Placement] = []
        while true {
            let fresh = next(linked.isEmpty)
            if fresh.isEmpty, linked.isEmpty { return }
            let verdicts = sync(linked.map(\.folder) + fresh.map(\.file), syncer: syncer)
            for (placement, verdict) in zip(linked, verdicts) { placement.done(verdict) }
            linked = []
            for (placement, verdict) in zip(fresh, verdicts.dropFirst(verdicts.count - fresh.count)) {
                if verdict != 0 {
                    placement.done(verdict)
                } else if placement.link() {
                    linked.append(placement)
                } else {
                    placement.done(0)  // it says why itself; its folder is left alone
                }
            }
        }
    }

    /// One group alone: bytes synced, files linked, folders synced; the verdict of each
    /// placement (their `done` is not called).
    static func round(_ placements: [Placement], syncer: Syncer) -> [Int32] {
        let verdicts = Mutex([Int32](repeating: 0, count: placements.count))
        var groups = [
            placements.enumerated().map { index, placement in
                Placement(file: placement.file, folder: placement.folder, link: placement.link) { verdict in verdicts.withLock { $0[index] = verdict } }
            }
        ]
        run(syncer: syncer) { _ in groups.popLast() ?? [] }
        return verdicts.withLock { $0 }
    }

    /// Syncs `descriptors`: the verdict of each, in order.
    static func sync(_ descriptors: [Descriptor], syncer: Syncer) -> [Int32] {
        guard descriptors.count > 1 else { return descriptors.map { syncer.fsync($0.descriptor) } }
        var verdicts = [Int32](repeating: -1, count: descriptors.count)
        var byDevice: [UInt64: [Int]] = [:]
        for (index, entry) in descriptors.enumerated() {
            if let device = syncer.device(entry.descriptor) {
                byDevice[device, default: []].append(index)
            } else {
                verdicts[index] = syncer.fsync(entry.descriptor)
            }
        }
        for indices in byDevice.values {
            let first = indices.min { descriptors[$0].opened < descriptors[$1].opened } ?? indices[0]
            if indices.count > 1, syncer.syncfs(descriptors[first].descriptor) == 0 {
                for index in indices { verdicts[index] = 0 }
            } else {
                for index in indices { verdicts[index] = syncer.fsync(descriptors[index].descriptor) }
            }
        }
        return verdicts
    }
}
