import Crypto
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a receiver keeps what it holds of resources, so that a transfer goes on after either
/// program restarts: a directory (`0700`) of records (``ResumeRecord``, `0600`), one per
/// resource by sender, directory, name, size and SHA-256. Pass it to
/// ``ResourceOffer/accept(into:keepingIn:)``.
///
/// What is kept is bounded: ``prune(now:)`` removes the records older than ``maximumAge`` (24
/// hours, as Syncthing keeps its temporary files) with their partial files; a record is
/// touched whenever a chunk is added to it. A record that cannot be read is removed and its
/// transfer starts over, said in a sentence.
public final class ResumeStore: Sendable {
    /// The directory of records.
    public let directory: URL
    /// How long a record is kept after it was last written.
    public let maximumAge: Duration
    /// The records in use by a transfer of this process.
    private let claimed = Mutex<Set<String>>([])
    /// The directory was made (``mkdirAll()``).
    private let made = Mutex(false)

    /// - Parameter maximumAge: how long a record is kept after it was last written (24 hours).
    public init(directory: URL, maximumAge: Duration = .seconds(24 * 3600)) {
        self.directory = directory
        self.maximumAge = maximumAge
    }

    /// The file drop's store: `$XDG_STATE_HOME/APPLICATION/partials` (`~/.local/state/…`).
    public static func standard(application: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ResumeStore {
        ResumeStore(directory: XDGDirectory.state(environment: environment).appendingPathComponent(application).appendingPathComponent("partials"))
    }

    /// The key of a resource: a hash of who sent it, where it goes and what it is.
    static func key(peer: UUID, directory: URL, name: String, size: UInt64, sha256: String) -> String {
        let text = [peer.uuidString, directory.standardizedFileURL.path, name, String(size), sha256].joined(separator: "\u{0}")
        return SHA256.hash(data: Data(text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    func url(of key: String) -> URL { directory.appendingPathComponent(key + ".resume", isDirectory: false) }

    /// Claims the record `key` for one transfer of this process; false when another has it.
    func claim(_ key: String) -> Bool {
        claimed.withLock { $0.insert(key).inserted }
    }

    func release(_ key: String) {
        _ = claimed.withLock { $0.remove(key) }
    }

    /// The record `key`: nil when there is none; throws why it cannot be used (it is then removed).
    func load(_ key: String) throws(ResumeRecord.RecordDamage) -> ResumeRecord? {
        let url = url(of: key)
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            let error = errno
            unlink(url.path)
            throw ResumeRecord.RecordDamage(SourceFile.describe(error))
        }
        defer { close(descriptor) }
        let data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
        do {
            return try ResumeRecord.decode(data)
        } catch {
            unlink(url.path)
            throw error
        }
    }

    /// Writes `record` as the record `key`, made anew; nil when it cannot be written (nothing
    /// is kept then, and the transfer goes on).
    func create(_ key: String, _ record: ResumeRecord) -> ResumeRecordFile? {
        guard mkdirAll() else { return nil }
        if let file = try? ResumeRecordFile(writing: record, to: url(of: key)) { return file }
        // The directory may have gone since it was made: made again, once.
        made.withLock { $0 = false }
        guard mkdirAll() else { return nil }
        return try? ResumeRecordFile(writing: record, to: url(of: key))
    }

    /// Removes the record `key`.
    func remove(_ key: String) {
        unlink(url(of: key).path)
    }

    /// Makes the directory and those on its way (`0700`), once for the store's life (a record
    /// is made for every file received).
    private func mkdirAll() -> Bool {
        if made.withLock({ $0 }) { return true }
        var path = ""
        for part in directory.standardizedFileURL.pathComponents.dropFirst() {
            path += "/" + part
            if mkdir(path, 0o700) != 0, errno != EEXIST { return false }
        }
        made.withLock { $0 = true }
        return true
    }

    /// Removes the records last written more than ``maximumAge`` before `now`, and the partial
    /// files of those not saved; returns how many were removed. Records in use are left alone.
    @discardableResult
    public func prune(now: Date = Date()) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        let age = Double(maximumAge.components.seconds)
        var removed = 0
        for name in names where name.hasSuffix(".resume") {
            let key = String(name.dropLast(".resume".count))
            let url = url(of: key)
            var info = stat()
            guard lstat(url.path, &info) == 0, !claimed.withLock({ $0.contains(key) }) else { continue }
            guard now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > age else { continue }
            if let record = try? load(key), record.header.saved == nil {
                PartialFile.removeKept(record.header.partial, of: record.header.name, in: URL(fileURLWithPath: record.header.directory, isDirectory: true))
            }
            remove(key)
            removed += 1
        }
        return removed
    }
}
