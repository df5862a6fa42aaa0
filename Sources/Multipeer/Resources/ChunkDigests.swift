import Crypto
import Foundation

/// The SHA-256s of a resource's bytes as they arrive: of each fixed-size chunk (kept on disk so
/// that what a restarted receiver holds is checked before it is trusted, and folded into a root
/// that the sender checks against its own file: `docs/PROTOCOL.md` §3.9), and, unless the file is
/// checked by that root (``WireProtocol/Feature/chunkRootAfterBytes``), of the whole file. A
/// value: its methods do no I/O.
struct ChunkDigests {
    /// The size of a chunk: 1 MiB (the last chunk of a file may be shorter).
    static let chunkBytes = 1 << 20

    /// The resource's size.
    let size: UInt64
    /// The size of its chunks (a receiver's are ``chunkBytes``; a sender checks those the
    /// receiver says).
    let chunkSize: Int
    /// The bytes hashed so far.
    private(set) var count: UInt64 = 0
    /// The whole chunks hashed so far (the last, shorter one counts once the file is complete).
    private(set) var chunks: UInt64 = 0
    /// The whole file's SHA-256 so far; nil when the file is checked by its chunk root alone,
    /// so that each byte is hashed once.
    private var whole: SHA256?
    private var chunk = SHA256()
    private var chunkFill = 0
    /// The SHA-256 of the chunk hashes so far, one after another.
    private var roots = SHA256()

    /// - Parameter hashingWhole: whether the whole file's SHA-256 is taken too (``digest``);
    ///   without it only the chunks' hashes and their root (``claim``) are.
    init(size: UInt64, chunkBytes: Int = ChunkDigests.chunkBytes, hashingWhole: Bool = true) {
        self.size = size
        chunkSize = chunkBytes
        whole = hashingWhole ? SHA256() : nil
    }

    /// Whether the whole file's SHA-256 is taken.
    var hashesWhole: Bool { whole != nil }

    /// Hashes `bytes`, which follow those hashed so far; returns the hashes of the chunks they
    /// complete, in order.
    mutating func add(_ bytes: Data) -> [[UInt8]] {
        var completed: [[UInt8]] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = chunkSize - chunkFill
            let piece = rest.prefix(room)
            rest = rest.dropFirst(piece.count)
            chunk.update(data: piece)
            whole?.update(data: piece)
            chunkFill += piece.count
            count += UInt64(piece.count)
            if chunkFill == chunkSize || count == size { completed.append(closeChunk()) }
        }
        return completed
    }

    private mutating func closeChunk() -> [UInt8] {
        let hash = Array(chunk.finalize())
        roots.update(data: hash)
        chunks += 1
        chunk = SHA256()
        chunkFill = 0
        return hash
    }

    /// What the bytes hashed so far are, as RESOURCE_HELD says it: how many pieces they make
    /// cut at every chunk (the last may be short), and the SHA-256 of those pieces' SHA-256s,
    /// one after another.
    var claim: (pieces: UInt64, root: [UInt8]) {
        var folded = roots
        guard chunkFill > 0 else { return (chunks, Array(folded.finalize())) }
        folded.update(data: Array(chunk.finalize()))
        return (chunks + 1, Array(folded.finalize()))
    }

    /// The SHA-256 of the whole file (meaningful once every byte was hashed); nil when it is not
    /// taken (`hashingWhole` false).
    var digest: [UInt8]? { whole.map { Array($0.finalize()) } }

    /// What the file is checked against at its end: its chunk root (`root`), else its whole
    /// SHA-256 (nil when that is not taken).
    func digest(root: Bool) -> [UInt8]? {
        root ? claim.root : digest
    }

    /// The SHA-256 of a file's first `size` bytes, reading them a chunk at a time with
    /// `read(offset, count)`; nil when they cannot be read whole.
    static func wholeDigest(size: UInt64, read: (UInt64, Int) -> Data?) -> [UInt8]? {
        var hasher = SHA256()
        var offset: UInt64 = 0
        while offset < size {
            let count = Int(min(UInt64(chunkBytes), size - offset))
            guard let data = read(offset, count), data.count == count else { return nil }
            hasher.update(data: data)
            offset += UInt64(count)
        }
        return Array(hasher.finalize())
    }

    /// The root of `hashes`: the SHA-256 of them one after another.
    static func root(of hashes: [[UInt8]]) -> [UInt8] {
        var hasher = SHA256()
        for hash in hashes { hasher.update(data: hash) }
        return Array(hasher.finalize())
    }

    /// How many of the first chunks of a file of `size` bytes match `hashes`, reading chunk `i`
    /// with `read(offset, count)` (nil when it cannot be read whole); stops at the first that
    /// does not. `digests` ends as the hashes of those chunks, ready to go on after them.
    static func matching(
        _ hashes: [[UInt8]], size: UInt64, digests: inout ChunkDigests, read: (UInt64, Int) -> Data?
    ) -> Int {
        for (index, expected) in hashes.enumerated() {
            let offset = UInt64(index) * UInt64(chunkBytes)
            guard offset < size else { return index }
            let count = Int(min(UInt64(chunkBytes), size - offset))
            guard let data = read(offset, count), data.count == count else { return index }
            var next = digests
            guard next.add(data) == [expected] else { return index }
            digests = next
        }
        return hashes.count
    }
}
