import Foundation
import SafeText

/// A received resource's record in a ``ResumeStore``, while it arrives: chunk hashes are added
/// as chunks complete; at the end the record is removed (failed, cancelled), kept (interrupted,
/// for a restart) or marked saved. Every call blocks: make them on a ``FileQueue``.
final class ResourceKeeping: Sendable {
    let store: ResumeStore
    let key: String
    let record: ResumeRecordFile

    init(store: ResumeStore, key: String, record: ResumeRecordFile) {
        self.store = store
        self.key = key
        self.record = record
    }

    /// The transfer failed or was cancelled: nothing is kept.
    func remove() {
        store.remove(key)
        store.release(key)
    }

    /// The transfer stopped without an end: the record stays for a restart.
    func keep() {
        store.release(key)
    }

    /// The file was saved as `url`, its SHA-256 `digest` (its chunk root when `root`): the
    /// record says so, so that the same file sent again is answered saved. The record is rewritten in its own file, not made
    /// anew and renamed over it: a file made and a file removed for every file received cost
    /// the file system more than the rest of the receiver's work for small files (ext4 looks
    /// past recently removed inodes when it makes one). A crash in the middle of the rewrite
    /// leaves a record that does not decode, or whose hashes do not match the saved file: it is
    /// removed when it is next read, and the same file sent again is received again.
    func saved(as url: URL, digest: [UInt8], root: Bool) {
        defer { store.release(key) }
        var kept = record.record
        kept.header.saved = url.lastPathComponent
        kept.header.sha256 = Hex.encode(digest)
        kept.header.root = root ? true : nil
        if !record.rewrite(kept) { store.remove(key) }
    }
}

/// Where an accepted resource starts: its partial file, what it holds (checked), its record,
/// and what to tell about what was kept from before.
struct ResourceStart: Sendable {
    let file: (any PartialResourceFile)?
    let digests: ChunkDigests
    let keeping: ResourceKeeping?
    /// A sentence about something kept from before that could not be used.
    let note: String?
    /// The same file, received and saved before: nothing to receive (when its SHA-256 follows
    /// the bytes, once the sender found its file is the same; ``file`` is then a new partial
    /// file, for the bytes of one that is not).
    let saved: URL?

    /// Opens the partial file of `offer` from `peer` in `directory`: what `store` kept of it
    /// from before, checked chunk by chunk against its record, else a new one (recorded in
    /// `store`). When the offer's SHA-256 follows the bytes (`digestFollows`), what was kept
    /// is found by sender, directory, name and size alone: the sender checks it against its
    /// file by the chunks' SHA-256; when its chunk root follows them (`rootFollows`), the whole
    /// file's SHA-256 is not taken. The partial file is on `files`, the record on the store's.
    /// Blocks: call it on a ``FileQueue``.
    static func open(
        _ offer: Frame.ResourceOffer, from peer: UUID, in directory: URL, store: ResumeStore?, digestFollows: Bool = false, rootFollows: Bool = false,
        files: any ResourceFiles
    ) throws(MultipeerError) -> ResourceStart {
        let fresh = ChunkDigests(size: offer.size, hashingWhole: !rootFollows)
        guard let store else {
            return ResourceStart(file: try files.newPartialFile(in: directory, name: offer.name, transfer: offer.transfer), digests: fresh, keeping: nil, note: nil, saved: nil)
        }
        let sha256 = digestFollows ? "" : Hex.encode(offer.digest)
        let key = ResumeStore.key(peer: peer, directory: directory, name: offer.name, size: offer.size, sha256: sha256)
        guard store.claim(key) else {
            // Another transfer of this process has it: this one keeps nothing.
            return ResourceStart(file: try files.newPartialFile(in: directory, name: offer.name, transfer: offer.transfer), digests: fresh, keeping: nil, note: nil, saved: nil)
        }
        var note: String?
        var restored: ResourceStart?
        do throws(ResumeRecord.RecordDamage) {
            if let kept = try store.load(key) {
                restored = restore(kept, key: key, store: store, in: directory, files: files, hashingWhole: !rootFollows, note: &note)
            }
        } catch {
            note = "What was kept of \(TerminalText.quoted(offer.name)) from before cannot be used (its record: \(error.reason)); it starts over."
        }
        if let restored {
            guard digestFollows, restored.saved != nil else { return restored }
            // Saved before: the sender checks its file against it; a new partial file takes
            // the bytes of one that is not the same.
            let file = try files.newPartialFile(in: directory, name: offer.name, transfer: offer.transfer)
            return ResourceStart(file: file, digests: restored.digests, keeping: nil, note: nil, saved: restored.saved)
        }
        do throws(MultipeerError) {
            let file = try files.newPartialFile(in: directory, name: offer.name, transfer: offer.transfer)
            let header = ResumeRecord.Header(
                peer: peer, directory: directory.standardizedFileURL.path, name: offer.name, size: offer.size, sha256: sha256,
                partial: file.temporaryName, chunkBytes: ChunkDigests.chunkBytes)
            let keeping = store.create(key, ResumeRecord(header: header, hashes: [])).map { ResourceKeeping(store: store, key: key, record: $0) }
            if keeping == nil { store.release(key) }
            return ResourceStart(file: file, digests: fresh, keeping: keeping, note: note, saved: nil)
        } catch {
            store.release(key)
            throw error
        }
    }

    /// Goes on from the record `kept`: a file saved before, or a partial file checked chunk by
    /// chunk; nil (said in `note`) when nothing of it can be used. A partial file's whole SHA-256
    /// is taken as it is re-read when `hashingWhole`; a saved file's always (a sender may check it
    /// by either digest).
    private static func restore(
        _ kept: ResumeRecord, key: String, store: ResumeStore, in directory: URL, files: any ResourceFiles, hashingWhole: Bool, note: inout String?
    ) -> ResourceStart? {
        let header = kept.header
        if let saved = header.saved {
            var digests = ChunkDigests(size: header.size)
            let path = (ResourcePath.parts(of: header.name).dropLast() + [saved]).joined(separator: "/")
            if let file = try? files.keptPartialFile(saved, in: directory, name: path), checks(file, kept.hashes, size: header.size, into: &digests) == kept.hashes.count,
               digests.count == header.size, digests.digest(root: header.root == true).map({ Hex.encode($0) }) == header.sha256 {
                file.keep()
                store.release(key)
                let url = ResourcePath.parts(of: path).reduce(directory) { $0.appendingPathComponent($1) }
                return ResourceStart(file: nil, digests: digests, keeping: nil, note: nil, saved: url)
            }
            store.remove(key)  // the saved file changed or went: it is received again
            return nil
        }
        var digests = ChunkDigests(size: header.size, hashingWhole: hashingWhole)
        let file: any PartialResourceFile
        do {
            file = try files.keptPartialFile(header.partial, in: directory, name: header.name)
        } catch {
            store.remove(key)
            note = "The partial file of \(TerminalText.quoted(header.name)) kept from before is gone; it starts over."
            return nil
        }
        let good = checks(file, kept.hashes, size: header.size, into: &digests)
        guard let record = try? ResumeRecordFile(writing: ResumeRecord(header: header, hashes: Array(kept.hashes.prefix(good))), to: store.url(of: key), in: store.files) else {
            file.keep()
            return nil
        }
        if good < kept.hashes.count {
            note = "What was kept of \(TerminalText.quoted(header.name)) from before does not match its chunks' SHA-256 after \(digests.count) bytes; it goes on from there."
        }
        return ResourceStart(file: file, digests: digests, keeping: ResourceKeeping(store: store, key: key, record: record), note: note, saved: nil)
    }

    /// How many of `hashes` the first chunks of `file` match (``ChunkDigests/matching(_:size:digests:read:)``).
    private static func checks(_ file: any PartialResourceFile, _ hashes: [[UInt8]], size: UInt64, into digests: inout ChunkDigests) -> Int {
        ChunkDigests.matching(hashes, size: size, digests: &digests) { offset, count in file.read(at: offset, count: count) }
    }
}
