import Crypto
import Foundation

/// A file being sent, opened by ``ResourceFiles/openSource(at:followingLinks:)``: its size
/// taken when it was opened, read in blocks from any offset (where an interrupted transfer
/// resumes). Every call may block.
public protocol ResourceSource: AnyObject, Sendable {
    /// Where the file is, for messages.
    var path: String { get }
    /// Its size when it was opened.
    var size: UInt64 { get }

    /// Up to `count` bytes from `offset`, fewer only at the end of the file.
    /// - Throws: ``MultipeerError/Code/resourceUnreadable``, also when the file became shorter.
    func read(at offset: UInt64, count: Int) throws(MultipeerError) -> Data

    /// Throws when the file's size or modification time changed since it was opened.
    /// - Throws: ``MultipeerError/Code/resourceUnreadable``.
    func checkUnchanged() throws(MultipeerError)
}

extension ResourceSource {
    /// Why the file is not what was opened (``checkUnchanged()``'s error); nil when it is.
    func change() -> MultipeerError? {
        do throws(MultipeerError) {
            try checkUnchanged()
            return nil
        } catch {
            return error
        }
    }

    /// The SHA-256 of the whole file, read in blocks of 1 MiB.
    func digest() throws(MultipeerError) -> [UInt8] {
        var hash = SHA256()
        var offset: UInt64 = 0
        while offset < size {
            let block = try read(at: offset, count: 1 << 20)
            hash.update(data: block)
            offset += UInt64(block.count)
        }
        try checkUnchanged()
        return Array(hash.finalize())
    }

    /// Whether the receiver's claim `held` of the bytes up to `offset` is this file's: the
    /// pieces of those bytes cut at every chunk hash to the same root (``ChunkDigests/claim``).
    /// Each block read is given to `each` with its offset too (the sender's ``RunningDigest``).
    func holds(_ held: Frame.ResourceHeld, upTo offset: UInt64, each: (Data, UInt64) -> Void = { _, _ in }) throws(MultipeerError) -> Bool {
        let chunkBytes = UInt64(held.chunkBytes)
        guard (4096...(64 << 20)).contains(chunkBytes), offset <= size, held.chunks == (offset + chunkBytes - 1) / chunkBytes else { return false }
        var digests = ChunkDigests(size: size, chunkBytes: Int(chunkBytes))
        var at: UInt64 = 0
        while at < offset {
            let block = try read(at: at, count: Int(min(chunkBytes, offset - at)))
            _ = digests.add(block)
            each(block, at)
            at += UInt64(block.count)
        }
        let claim = digests.claim
        return claim.pieces == held.chunks && claim.root == held.root
    }
}
