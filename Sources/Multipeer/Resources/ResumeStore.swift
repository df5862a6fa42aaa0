import Crypto
import Foundation
import Synchronization

/// Where a receiver keeps what it holds of resources, so that a transfer goes on after either
/// program restarts: a directory (`0700`) of records (``ResumeRecord``, `0600`), one per
/// resource by sender, directory, name, size and SHA-256. Pass it to
/// ``ResourceOffer/accept(into:keepingIn:)``.
///
/// What is kept is bounded: ``prune(now:)`` removes the records older than ``maximumAge`` (24
/// hours, as Syncthing keeps its temporary files) with their partial files; a record is
/// touched whenever a chunk is added to it. A record that cannot be read is removed and its
/// transfer starts over, said in a sentence.
///
/// Its records and the partial files it prunes are on its ``files``: `MultipeerPOSIX` makes a
/// store on the system's disk (`ResumeStore(directory:)`, `ResumeStore.standard(application:)`).
public final class ResumeStore: Sendable {
    /// The directory of records.
    public let directory: URL
    /// The disk the records are on, and the partial files of those pruned.
    public let files: any ResourceFiles
    /// How long a record is kept after it was last written.
    public let maximumAge: Duration
    /// The records in use by a transfer of this process.
    private let claimed = Mutex<Set<String>>([])
    /// The directory was made (``mkdirAll()``).
    private let made = Mutex(false)

    /// A store of records in `directory` on `files`.
    /// - Parameters:
    ///   - files: the disk of the records (and of the partial files of those pruned).
    ///   - maximumAge: how long a record is kept after it was last written (24 hours).
    public init(directory: URL, files: any ResourceFiles, maximumAge: Duration = .seconds(24 * 3600)) {
        self.directory = directory
        self.files = files
        self.maximumAge = maximumAge
    }

    /// The key of a resource: a hash of who sent it, where it goes and what it is.
    static func key(peer: UUID, directory: URL, name: String, size: UInt64, sha256: String) -> String {
        let text = [peer.uuidString, directory.standardizedFileURL.path, name, String(size), sha256].joined(separator: "\u{0}")
        return Hex.encode(SHA256.hash(data: Data(text.utf8)).prefix(16))
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
        let data: Data
        do throws(FileFailure) {
            guard let read = try files.readStateFile(at: url) else { return nil }
            data = read
        } catch {
            throw ResumeRecord.RecordDamage(error.reason)
        }
        do {
            return try ResumeRecord.decode(data)
        } catch {
            files.removeStateFile(at: url)
            throw error
        }
    }

    /// Writes `record` as the record `key`, made anew; nil when it cannot be written (nothing
    /// is kept then, and the transfer goes on).
    func create(_ key: String, _ record: ResumeRecord) -> ResumeRecordFile? {
        guard mkdirAll() else { return nil }
        if let file = try? ResumeRecordFile(writing: record, to: url(of: key), in: files) { return file }
        // The directory may have gone since it was made: made again, once.
        made.withLock { $0 = false }
        guard mkdirAll() else { return nil }
        return try? ResumeRecordFile(writing: record, to: url(of: key), in: files)
    }

    /// Removes the record `key`.
    func remove(_ key: String) {
        files.removeStateFile(at: url(of: key))
    }

    /// Makes the directory and those on its way (`0700`), once for the store's life (a record
    /// is made for every file received).
    private func mkdirAll() -> Bool {
        if made.withLock({ $0 }) { return true }
        guard files.makeStateDirectory(directory) else { return false }
        made.withLock { $0 = true }
        return true
    }

    /// Removes the records last written more than ``maximumAge`` before `now`, and the partial
    /// files of those not saved; returns how many were removed. Records in use are left alone.
    @discardableResult
    public func prune(now: Date = Date()) -> Int {
        let age = Double(maximumAge.components.seconds)
        var removed = 0
        for entry in files.stateFiles(in: directory) where entry.name.hasSuffix(".resume") {
            let key = String(entry.name.dropLast(".resume".count))
            guard !claimed.withLock({ $0.contains(key) }) else { continue }
            guard now.timeIntervalSince1970 - entry.modified.timeIntervalSince1970 > age else { continue }
            if let record = try? load(key), record.header.saved == nil {
                let location = PartialFileLocation(name: record.header.name, in: URL(fileURLWithPath: record.header.directory, isDirectory: true))
                files.removePartialFile(at: location, temporaryName: record.header.partial)
            }
            remove(key)
            removed += 1
        }
        return removed
    }
}
