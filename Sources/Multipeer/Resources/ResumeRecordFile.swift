import Foundation
import Synchronization

/// A record being written as chunks arrive: a file this user alone can read, of the store's
/// ``ResumeStateFiles``. Every call blocks: make them on a ``FileQueue``. A write that fails
/// stops the keeping, never the transfer: the file is still checked whole at the end.
final class ResumeRecordFile: Sendable {
    let url: URL
    private let file: any StateFile
    /// Where the hashes start.
    private let headerBytes: Int

    /// Writes `record` to `url` anew (`0600`) in `files`.
    init(writing record: ResumeRecord, to url: URL, in files: any ResumeStateFiles) throws {
        self.url = url
        let data = try record.encoded()
        do throws(FileFailure) {
            file = try files.createStateFile(at: url, contents: data)
        } catch {
            throw ResumeRecord.RecordDamage(error.reason)
        }
        headerBytes = data.count - record.hashes.count * 32
        kept = Mutex(record)
    }

    /// What was written to the record (a hash whose write failed included: it is written
    /// again with the rest by ``rewrite(_:)``).
    private let kept: Mutex<ResumeRecord>

    /// The record as written so far.
    var record: ResumeRecord { kept.withLock { $0 } }

    /// Adds the hashes of chunks that just completed.
    func append(_ hashes: [[UInt8]]) {
        guard !hashes.isEmpty else { return }
        let bytes = Data(hashes.flatMap { $0 })
        let offset = kept.withLock { record in
            defer { record.hashes += hashes }
            return UInt64(headerBytes) + UInt64(record.hashes.count) * 32
        }
        file.write(bytes, at: offset)
    }

    /// Replaces the whole record with `record`, in place (no file made and renamed over it);
    /// false when it could not be written. The last write to the record: no hash is added
    /// after it.
    func rewrite(_ record: ResumeRecord) -> Bool {
        guard let data = try? record.encoded() else { return false }
        kept.withLock { $0 = record }
        return file.write(data, at: 0) && file.truncate(to: UInt64(data.count))
    }

    /// Keeps the first `chunks` hashes only.
    func truncate(toChunks chunks: UInt64) {
        kept.withLock { $0.hashes = Array($0.hashes.prefix(Int(chunks))) }
        file.truncate(to: UInt64(headerBytes) + chunks * 32)
    }
}
