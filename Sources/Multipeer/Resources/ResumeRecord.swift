import Foundation

/// What a receiver keeps of a resource so that it goes on after either program restarts:
/// which transfer it was (sender, directory, name, size, SHA-256), where its partial file is,
/// and the SHA-256 of each whole chunk written to it (``ChunkDigests``), added as they complete.
/// Once the file is saved, its name in its folder, so that the same file sent again is not
/// sent twice.
///
/// On disk (`0600`, in a ``ResumeStore``): one line of JSON (the ``Header``), then the chunk
/// hashes, 32 bytes each. A file cut in the middle of a hash keeps the hashes before it.
struct ResumeRecord: Sendable {
    /// The record's first line.
    struct Header: Codable, Sendable, Equatable {
        /// The layout's version: 1.
        var version = 1
        /// The sender's identity.
        var peer: UUID
        /// The directory the resource was accepted into.
        var directory: String
        /// Its name or path (``ResourceOffer/name``).
        var name: String
        var size: UInt64
        /// Its SHA-256, lowercase hex: of the whole file, or once saved its chunk root when
        /// ``root`` says so.
        var sha256: String
        /// The hidden name of its partial file, in its folder.
        var partial: String
        var chunkBytes: Int
        /// The name it was saved under in its folder, once saved.
        var saved: String?
        /// Whether ``sha256`` is the saved file's chunk root, the SHA-256 of its chunks' SHA-256s
        /// (``WireProtocol/Feature/chunkRootAfterBytes``); absent: the whole file's SHA-256.
        var root: Bool?
    }

    var header: Header
    /// The chunk hashes, in order.
    var hashes: [[UInt8]]

    /// The bytes of a record.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = try encoder.encode(header)
        data.append(0x0A)
        for hash in hashes { data.append(contentsOf: hash) }
        return data
    }

    /// The record in `data`; throws a sentence when it is not one.
    static func decode(_ data: Data) throws(RecordDamage) -> ResumeRecord {
        guard let newline = data.firstIndex(of: 0x0A) else { throw RecordDamage("it has no header") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data[data.startIndex..<newline])
        } catch {
            throw RecordDamage("its header cannot be read")
        }
        guard header.version == 1 else { throw RecordDamage("it is of another version (\(header.version))") }
        guard header.chunkBytes == ChunkDigests.chunkBytes else { throw RecordDamage("its chunks are of another size") }
        let body = data[(newline + 1)...]
        let count = body.count / 32  // a hash cut short by a crash is left out
        let hashes = (0..<count).map { index in Array(body.dropFirst(index * 32).prefix(32)) }
        return ResumeRecord(header: header, hashes: hashes)
    }

    /// Why a record cannot be used, completing "… kept from before cannot be used: …".
    struct RecordDamage: Error, Sendable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
